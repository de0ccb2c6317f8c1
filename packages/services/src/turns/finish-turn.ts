import { sql } from 'drizzle-orm';
import type { TurnUsage } from '@trellis/agent';
import type { FailureCode } from '@trellis/domain';
import type { Db, StoredToolCall } from '@trellis/db';

export type ReplyStatus = 'complete' | 'interrupted' | 'failed';

/**
 * Closes turn k in one statement: stores the assistant's reply with whatever
 * was produced (an interrupted or failed turn keeps its partial reply), bumps
 * the thread's counters and releases the lease `leaseOwner` holds, so a client
 * that sends again the moment it reads `done` is never refused.
 */
export async function storeReplyAndRelease(
  db: Db,
  input: {
    threadId: string;
    turnIndex: number;
    leaseOwner: string;
    content: string;
    toolCalls: StoredToolCall[];
    status: ReplyStatus;
    /** Why the reply is not complete (null when it is). */
    reason: string | null;
    /** A provider failure's code, and the wait a rate limit asked for. */
    reasonCode: FailureCode | null;
    retryAfterS: number | null;
    /** 1, or the next attempt of a retry in place. */
    attempt: number;
    /** Tokens the provider reported. */
    usage: TurnUsage | null;
  },
): Promise<{ messageId: string }> {
  const [row] = await db.execute<{ id: string }>(sql`
    with reply as (
      insert into messages (thread_id, turn_index, role, content, tool_calls, status, reason, reason_code, retry_after_s,
        attempt, input_tokens, output_tokens, model)
      values (${input.threadId}, ${input.turnIndex}, 'assistant', ${input.content},
        ${JSON.stringify(input.toolCalls)}::jsonb, ${input.status}, ${input.reason}, ${input.reasonCode}, ${input.retryAfterS},
        ${input.attempt}, ${input.usage?.inputTokens ?? null}, ${input.usage?.outputTokens ?? null}, ${input.usage?.model ?? null})
      returning id
    ),
    counters as (
      update conversations set message_count = message_count + 1, updated_at = now(),
        lease_owner = case when lease_owner = ${input.leaseOwner} then null else lease_owner end,
        lease_expires_at = case when lease_owner = ${input.leaseOwner} then null else lease_expires_at end,
        lease_instance = case when lease_owner = ${input.leaseOwner} then null else lease_instance end
      where thread_id = ${input.threadId}
    )
    select id::text as id from reply`);
  return { messageId: row!.id };
}
