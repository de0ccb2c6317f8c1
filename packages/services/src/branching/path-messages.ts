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
 * and the usage travel only where they are set; most messages carry none of them.
 */
export function toMessage({
  seq: _seq,
  compacted_before: compactedBefore,
  kind,
  provenance,
  reason_code: reasonCode,
  retry_after_s: retryAfterS,
  attempt,
  input_tokens: inputTokens,
  output_tokens: outputTokens,
  model,
  refs,
  citations,
  author_id: authorId,
  author_name: authorName,
  ...row
}: MessageRow): Message {
  return {
    ...row,
    ...(compactedBefore && { compacted_before: true }),
    ...(kind !== null && { kind }),
    ...(provenance !== null && { provenance }),
    ...(reasonCode !== null && { reason_code: reasonCode }),
    ...(retryAfterS !== null && { retry_after_s: retryAfterS }),
    ...(attempt > 1 && { attempt }),
    ...(authorId !== null && { author: { user_id: authorId, name: authorName ?? '' } }),
    ...(inputTokens !== null &&
      outputTokens !== null &&
      model !== null && { usage: { input_tokens: inputTokens, output_tokens: outputTokens, model } }),
    ...(refs !== null && refs.length > 0 && { refs }),
    ...(citations !== null && citations.length > 0 && { citations }),
  };
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
