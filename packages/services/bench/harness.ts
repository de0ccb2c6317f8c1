// Shared by the benchmarks that drive real turns (turns.ts, peer.ts): one turn
// through the service, a thread's stored bytes, and SQL copies of a turn's rows.
import type pg from 'pg';
import { checkpointBytes } from '@trellis/agent';
import type { ServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { sendTurn } from '../src/turns/send-turn';

/** A ~500-character user message, different every turn. */
export const message = (turn: number) =>
  `Turn ${turn}: ${'please tighten the argument of the second section and keep the tone. '.repeat(7)}`.slice(0, 500);

/** 100 KB (by default) that TOAST cannot compress, so a copy of it costs its full size. */
export function incompressibleDocument(bytes = 100_000): string {
  return Array.from({ length: Math.ceil(bytes / 16) }, () => Math.random().toString(36).slice(2, 18).padEnd(16, '0')).join('').slice(0, bytes);
}

export async function runTurn(deps: ServiceDeps, actor: { userId: string }, threadId: string, content: string): Promise<void> {
  const stream = await sendTurn(deps, actor, { threadId, content });
  for await (const event of stream) if (event.event === 'error') throw new Error(`turn failed: ${event.data.message}`);
  const outcome = await stream.settled;
  if (outcome.status !== 'complete') throw new Error(`turn ended ${String(outcome.status)}`);
}

/** Everything one thread stores: its checkpointer rows, snapshots, the bodies they reference, its messages. */
export async function threadBytes(deps: ServiceDeps, pool: pg.Pool, threadId: string): Promise<number> {
  const [row] = await deps.sql<{ bytes: string }[]>`
    select (
      coalesce((select sum(pg_column_size(s.*)) from workspace_snapshots s where s.thread_id = ${threadId}), 0)
      + coalesce((select sum(pg_column_size(b.*)) from document_blobs b
          where b.hash in (select document_hash from workspace_snapshots where thread_id = ${threadId})), 0)
      + coalesce((select sum(pg_column_size(m.*)) from messages m where m.thread_id = ${threadId}), 0)
    )::bigint as bytes`;
  return Number(row?.bytes ?? 0) + (await checkpointBytes(pool, CHECKPOINTER_SCHEMA, threadId));
}

/** Writes turns from+1..to of a thread as copies of turn `from`'s snapshot and messages; returns the next turn. */
export async function copyTurns(deps: ServiceDeps, threadId: string, from: number, to: number): Promise<number> {
  await deps.sql.begin(async (tx) => {
    await tx`insert into workspace_snapshots
        (thread_id, turn_index, objective, document_title, document_hash, preferences, todos, user_message)
      select s.thread_id, t, s.objective, s.document_title, s.document_hash, s.preferences, s.todos, s.user_message
      from workspace_snapshots s cross join generate_series(${from + 1}::int, ${to}::int) t
      where s.thread_id = ${threadId} and s.turn_index = ${from}`;
    await tx`insert into messages (thread_id, turn_index, role, content, tool_calls, status)
      select m.thread_id, t, m.role, m.content, m.tool_calls, m.status
      from generate_series(${from + 1}::int, ${to}::int) t
      cross join lateral (select * from messages where thread_id = ${threadId} and turn_index = ${from} order by seq) m
      order by t`;
    await tx`update conversations set turn_index = ${to}, message_count = ${2 * to} where thread_id = ${threadId}`;
  });
  return to + 1;
}
