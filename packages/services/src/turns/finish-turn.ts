import { sql } from 'drizzle-orm';
import type { TurnUsage } from '@trellis/agent';
import type { FailureCode, PathRef } from '@trellis/domain';
import { pipelinedTransaction, type Db, type StoredToolCall } from '@trellis/db';
import { familyEventStatement } from '../live/family-events';
import { REASON_DISCONNECTED, REASON_STOPPED } from './turn-gate';

export type ReplyStatus = 'complete' | 'interrupted' | 'failed';

/**
 * Closes turn k in one statement: stores the assistant's reply with whatever
 * was produced (an interrupted or failed turn keeps its partial reply), bumps
 * the thread's counters and releases the lease `leaseOwner` holds, so a client
 * that sends again the moment it reads `done` is never refused. The family's `turn_finished` event
 * commits with it (one transaction, sent in one round trip).
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
    /** The referenced steps the agent read (`read_path`); none is stored as null. */
    citations?: readonly PathRef[];
  },
): Promise<{ messageId: string }> {
  const [stored] = await pipelinedTransaction(db, [
    sql`
    with reply as (
      insert into messages (thread_id, turn_index, role, content, tool_calls, status, reason, reason_code, retry_after_s,
        attempt, input_tokens, output_tokens, model, citations)
      values (${input.threadId}, ${input.turnIndex}, 'assistant', ${input.content},
        ${JSON.stringify(input.toolCalls)}::jsonb, ${input.status}, ${input.reason}, ${input.reasonCode}, ${input.retryAfterS},
        ${input.attempt}, ${input.usage?.inputTokens ?? null}, ${input.usage?.outputTokens ?? null}, ${input.usage?.model ?? null},
        ${input.citations && input.citations.length > 0 ? JSON.stringify(input.citations) : null}::jsonb)
      returning id
    ),
    counters as (
      update conversations set message_count = message_count + 1, updated_at = now(),
        lease_owner = case when lease_owner = ${input.leaseOwner} then null else lease_owner end,
        lease_expires_at = case when lease_owner = ${input.leaseOwner} then null else lease_expires_at end,
        lease_instance = case when lease_owner = ${input.leaseOwner} then null else lease_instance end
      where thread_id = ${input.threadId}
    )
    select id::text as id from reply`,
    familyEventStatement({
      threadId: input.threadId,
      kind: 'turn_finished',
      data: sql`jsonb_build_object('turn_index', ${input.turnIndex}::int, 'status', ${finishStatus(input.status, input.reason)}::text,
        'reason', ${input.reason}::text, 'message_id', (select m.id::text from messages m
          where m.thread_id = c.thread_id and m.turn_index = ${input.turnIndex} and m.role = 'assistant' order by m.seq desc limit 1))`,
    }),
  ]);
  const row = stored![0] as { id: string } | undefined;
  return { messageId: row!.id };
}

/** The family stream's status of a finished reply: an interruption the person asked for reads `stopped`. */
export function finishStatus(status: ReplyStatus, reason: string | null): 'complete' | 'interrupted' | 'failed' | 'stopped' {
  return status === 'interrupted' && (reason === REASON_STOPPED || reason === REASON_DISCONNECTED) ? 'stopped' : status;
}
