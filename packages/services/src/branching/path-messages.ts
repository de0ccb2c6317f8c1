import { sql, type SQL } from 'drizzle-orm';
import { lineageTurnRanges, type FailureCode, type LineageEntry, type Message } from '@trellis/domain';
import type { DbOrTx, StoredApplyProvenance, StoredPathRef, StoredToolCall } from '@trellis/db';
import { isoTimestamp } from '../workspace/iso-timestamp';

/**
 * Messages of the displayed path between turns `from` and `upTo` (inclusive) in
 * ONE query, whatever the lineage depth: each thread contributes only the turns it
 * owns (docs/branching.md, "The prefix rule": turns ≤ k render under the ancestors). With `lastMessages`, only
 * the newest that many (the agent's working-context budget), still in order.
 */
export async function readPathMessages(
  db: DbOrTx,
  lineage: readonly LineageEntry[],
  range: { from: number; upTo: number; lastMessages?: number },
): Promise<Message[]> {
  const ranges = lineageTurnRanges(lineage, range.upTo)
    .map((r) => ({ thread_id: r.thread_id, from: Math.max(r.from, range.from), to: r.to }))
    .filter((r) => r.to >= r.from);
  if (ranges.length === 0) return [];
  const limit = range.lastMessages === undefined ? sql`` : sql`limit ${range.lastMessages}`;
  const rows = await db.execute<MessageRow>(sql`
    select * from (
      select ${messageColumns(sql`m`)}
      from jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as r(thread_id text, "from" int, "to" int)
      join messages m on m.thread_id = r.thread_id and m.turn_index between r."from" and r."to"
      order by m.turn_index desc, m.seq desc
      ${limit}
    ) page order by turn_index, seq`);
  return rows.map(toMessage);
}

/** A `messages` row as {@link messageColumns} selects it. */
export type MessageRow = Omit<
  Message,
  'tool_calls' | 'compacted_before' | 'kind' | 'provenance' | 'reason_code' | 'retry_after_s' | 'attempt' | 'usage' | 'refs' | 'citations'
> & {
  tool_calls: StoredToolCall[];
  compacted_before: boolean;
  kind: 'apply' | null;
  provenance: StoredApplyProvenance | null;
  reason_code: FailureCode | null;
  retry_after_s: number | null;
  attempt: number;
  input_tokens: number | null;
  output_tokens: number | null;
  model: string | null;
  refs: StoredPathRef[] | null;
  citations: StoredPathRef[] | null;
  author_id: string | null;
  author_name: string | null;
  seq: number;
};

/** The columns of a transcript read from the `messages` row aliased `alias`, `seq` last (for ordering). */
export function messageColumns(alias: SQL): SQL {
  return sql`${alias}.id::text as id, ${alias}.thread_id, ${alias}.turn_index, ${alias}.role, ${alias}.content, ${alias}.tool_calls,
    ${alias}.status, ${alias}.reason, ${alias}.compacted_before, ${alias}.kind, ${alias}.provenance,
    ${alias}.reason_code, ${alias}.retry_after_s, ${alias}.attempt, ${alias}.input_tokens, ${alias}.output_tokens, ${alias}.model,
    ${alias}.refs, ${alias}.citations, ${isoTimestamp(sql`${alias}.created_at`)} as created_at, ${alias}.user_id as author_id,
    (select u.name from "user" u where u.id = ${alias}.user_id) as author_name, ${alias}.seq`;
}

/**
 * The API's message: the flag, an apply entry's fields, a failure's code and wait, a retry's attempt
 * and the usage travel only where they are set; most messages carry none of them. Built field by
 * field, not by rest and spread: a page of a long path maps hundreds of rows, and copying a row of
 * two dozen columns without some of them cost more than reading it.
 */
export function toMessage(row: MessageRow): Message {
  const message: Message = {
    id: row.id,
    thread_id: row.thread_id,
    turn_index: row.turn_index,
    role: row.role,
    content: row.content,
    tool_calls: row.tool_calls,
    status: row.status,
    reason: row.reason,
    created_at: row.created_at,
  };
  if (row.compacted_before) message.compacted_before = true;
  if (row.kind !== null) message.kind = row.kind;
  if (row.provenance !== null) message.provenance = row.provenance;
  if (row.reason_code !== null) message.reason_code = row.reason_code;
  if (row.retry_after_s !== null) message.retry_after_s = row.retry_after_s;
  if (row.attempt > 1) message.attempt = row.attempt;
  if (row.author_id !== null) message.author = { user_id: row.author_id, name: row.author_name ?? '' };
  if (row.input_tokens !== null && row.output_tokens !== null && row.model !== null) {
    message.usage = { input_tokens: row.input_tokens, output_tokens: row.output_tokens, model: row.model };
  }
  if (row.refs !== null && row.refs.length > 0) message.refs = row.refs;
  if (row.citations !== null && row.citations.length > 0) message.citations = row.citations;
  return message;
}

/**
 * The transcript without a turn's earlier attempts at its reply (replaced by a retry in place): what
 * the exports show as the conversation.
 */
export function withoutReplacedAttempts<M extends Pick<Message, 'thread_id' | 'turn_index' | 'role' | 'attempt'>>(messages: readonly M[]): M[] {
  const latest = new Map<string, number>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const key = `${m.thread_id}:${m.turn_index}`;
    latest.set(key, Math.max(latest.get(key) ?? 1, m.attempt ?? 1));
  }
  return messages.filter((m) => m.role !== 'assistant' || (m.attempt ?? 1) === latest.get(`${m.thread_id}:${m.turn_index}`));
}

/**
 * The messages a model may read as context (a branch's seed): the latest attempt of each reply, and
 * only a completed one — a failed or stopped reply is left out with the question it answered, as
 * the working context drops them when the attempt ends (the chat still shows them).
 */
export function modelContextMessages<M extends Pick<Message, 'thread_id' | 'turn_index' | 'role' | 'attempt' | 'status'>>(
  messages: readonly M[],
): M[] {
  const latest = withoutReplacedAttempts(messages);
  const unfinished = new Set(
    latest.filter((m) => m.role === 'assistant' && m.status !== 'complete').map((m) => `${m.thread_id}:${m.turn_index}`),
  );
  return latest.filter((m) => (m.role !== 'assistant' && m.role !== 'user') || !unfinished.has(`${m.thread_id}:${m.turn_index}`));
}
