// Opens turn k (docs/architecture.md, "The two stores and their clock"): in ONE
// transaction, take the lease and increment turn_index to k, capture snapshot k
// from the live rows, and store the user message. Snapshot k is the workspace
// at the START of turn k, before the agent acts, including every manual edit
// made since turn k-1.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AppError, previewText, type ApplyProvenance } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { requireOwnedThread, type ThreadActor } from '../conversations/conversation-access';
import { DEFAULT_CONVERSATION_TITLE } from '../conversations/create-conversation';
import { snapshotCaptureCtes } from './snapshot-capture';
import { leaseExpiry, leaseIsFree, type LeaseTiming } from './turn-lease';

export interface OpenedTurn {
  turnIndex: number;
  userMessageId: string;
  leaseOwner: string;
}

export async function beginTurn<T>(
  db: Db,
  actor: ThreadActor,
  input: {
    threadId: string;
    content: string;
    /** The turn opens with an apply entry (`content` is its text) instead of a user message. */
    applyEntry?: { provenance: ApplyProvenance } | undefined;
  },
  timing: LeaseTiming,
  instanceId: string | null,
  /**
   * Starts, once the lease is taken and while the turn's transaction is still open, work that only
   * needs the lease (and the workspace as it is once no edit is changing it); what it returns comes
   * back with the opened turn. The transaction may still roll back after it, leaving that unused.
   */
  alongside: (turnIndex: number) => T,
): Promise<OpenedTurn & { alongside: T }> {
  const { threadId, content } = input;
  const isUserMessage = input.applyEntry === undefined;
  const leaseOwner = randomUUID();
  const opened = await db.transaction(async (tx) => {
    // The lease is taken by this one atomic UPDATE, which also holds the
    // conversation row lock until commit: workspace edits (which take the same
    // lock) wait, so the capture below reads a workspace no edit is changing.
    const [turn] = await tx.execute<{ turn_index: number }>(sql`
      update conversations
      set lease_owner = ${leaseOwner}, lease_expires_at = ${leaseExpiry(timing)}, lease_instance = ${instanceId},
        turn_index = turn_index + 1, message_count = message_count + 1, updated_at = now(),
        -- a conversation still called by its default name, or a branch still carrying its parent's
        -- (docs/branching.md, "Names, stars and archive"), takes its first own message's
        title = case when ${isUserMessage} and (is_title_provisional or (turn_index = 0 and title = ${DEFAULT_CONVERSATION_TITLE}))
          then ${titleFrom(content)} else title end,
        is_title_provisional = is_title_provisional and not ${isUserMessage}
      where thread_id = ${threadId} and user_id = ${actor.userId} and deleted_at is null and ${leaseIsFree}
        and not exists (select 1 from conversation_branches b
          where b.thread_id = conversations.thread_id and b.status = 'pending')
      returning turn_index`);
    if (!turn) return null;
    const started = alongside(turn.turn_index);
    // A later statement of the same READ COMMITTED transaction: its snapshot
    // includes every edit that committed before the row lock was granted.
    const [message] = await tx.execute<{ id: string }>(sql`
      with ${snapshotCaptureCtes(threadId, content)}
      insert into messages (thread_id, turn_index, role, content, kind, provenance)
      values (${threadId}, ${turn.turn_index}, ${isUserMessage ? 'user' : 'system'}, ${content},
        ${isUserMessage ? null : 'apply'}, ${isUserMessage ? null : JSON.stringify(input.applyEntry!.provenance)}::jsonb)
      returning id::text as id`);
    return { turnIndex: turn.turn_index, userMessageId: message!.id, leaseOwner, alongside: started };
  });
  if (opened) return opened;
  // Nothing matched: say why, outside the rolled-back transaction.
  await requireOwnedThread(db, actor, threadId);
  throw new AppError('turn_in_progress', 'Another turn is running on this conversation; try again when it ends');
}

/** A short title from a first message: its first line, without directive prefixes, clamped. */
export function titleFrom(content: string): string {
  const line = content.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  return previewText(line.replace(/^(objective|doc|append|prefer|todo|done|artifact):\s*/i, ''), 60) || DEFAULT_CONVERSATION_TITLE;
}
