// Opens turn k (docs/architecture.md, "The two stores and their clock"): in ONE
// transaction, take the lease and increment turn_index to k, capture snapshot k
// from the live rows, and store the user message. Snapshot k is the workspace
// at the START of turn k, before the agent acts, including every manual edit
// made since turn k-1. The transaction is sent in one round trip.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AppError, plainTitleFromMessage, previewText, type ApplyProvenance, type PathRef, type Workspace } from '@trellis/domain';
import { pipelinedTransaction, type Db } from '@trellis/db';
import { actorUserId, leaseAccessSql, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { DEFAULT_CONVERSATION_TITLE } from '../conversations/create-conversation';
import { liveWorkspaceStatement, workspaceOf, type LiveRow } from '../workspace/read-live-workspace';
import { snapshotCaptureCtes } from './snapshot-capture';
import { leaseExpiry, leaseIsFree, type LeaseTiming } from './turn-lease';
import { familyEventStatement } from '../live/family-events';
import { familyConditionStatement, type FamilyCondition } from '../studies/study-conditions';

export interface OpenedTurn {
  turnIndex: number;
  userMessageId: string;
  leaseOwner: string;
  /** The family root (the family channel's key). */
  familyId: string;
  /** The live workspace as the turn opened on it (snapshot k's rows; artifacts without their bodies). */
  workspace: Workspace;
  /** The study condition the family runs under (null: none), whoever sends the turn. */
  condition: FamilyCondition | null;
}

export async function beginTurn(
  db: Db,
  actor: ThreadActor,
  input: {
    threadId: string;
    content: string;
    /** The turn opens with an apply entry (`content` is its text) instead of a user message. */
    applyEntry?: { provenance: ApplyProvenance } | undefined;
    /** The user message's checked references to other paths (stored with it; none: null). */
    refs?: readonly PathRef[] | undefined;
  },
  timing: LeaseTiming,
  instanceId: string | null,
): Promise<OpenedTurn> {
  const { threadId, content } = input;
  const isUserMessage = input.applyEntry === undefined;
  const leaseOwner = randomUUID();
  // Three statements of one transaction, sent together (pipelinedTransaction):
  // 1. The lease is taken by this one atomic UPDATE, which also holds the conversation row lock
  //    until commit: workspace edits (which take the same lock) wait.
  // 2. Snapshot k and the opening message. A later statement of the same READ COMMITTED
  //    transaction, so its snapshot includes every edit that committed before the row lock was
  //    granted. It writes only if statement 1 took the lease (it was sent before that was known).
  // 3. The live workspace the agent's first model call reads, as snapshot k captured it.
  // 4. The family's `turn_started` event and its NOTIFY, again only if statement 1 took the lease.
  // 5. The study condition the family runs under, if any.
  const [leased, opened, live, , conditions] = await pipelinedTransaction(db, [
    sql`
      update conversations
      set lease_owner = ${leaseOwner}, lease_expires_at = ${leaseExpiry(timing)}, lease_instance = ${instanceId},
        turn_index = turn_index + 1, message_count = message_count + 1, updated_at = now(),
        -- a conversation still called by its default name, or a branch still carrying its parent's
        -- (docs/branching.md, "Names, stars and archive"), takes its first own message's
        title = case when ${isUserMessage} and (is_title_provisional or (turn_index = 0 and title = ${DEFAULT_CONVERSATION_TITLE}))
          then ${titleFrom(content)} else title end,
        is_title_provisional = is_title_provisional and not ${isUserMessage}
      where thread_id = ${threadId} and ${leaseAccessSql(actor)} and deleted_at is null and ${leaseIsFree}
        and not exists (select 1 from conversation_branches b
          where b.thread_id = conversations.thread_id and b.status = 'pending')
      returning turn_index, root_thread_id`,
    sql`
      with ${snapshotCaptureCtes(threadId, content, { leaseOwner })}
      insert into messages (thread_id, turn_index, role, content, kind, provenance, user_id, refs)
      select c.thread_id, c.turn_index, ${isUserMessage ? 'user' : 'system'}, ${content},
        ${isUserMessage ? null : 'apply'}, ${isUserMessage ? null : JSON.stringify(input.applyEntry!.provenance)}::jsonb,
        ${isUserMessage ? actorUserId(actor) : null}::text,
        ${input.refs && input.refs.length > 0 ? JSON.stringify(input.refs) : null}::jsonb
      from captured c
      returning id::text as id`,
    liveWorkspaceStatement(threadId, { artifactContent: false }),
    familyEventStatement(
      {
        threadId,
        kind: 'turn_started',
        data: sql`jsonb_build_object('turn_index', c.turn_index, 'by', ${isUserMessage ? 'user' : 'apply'}::text,
          'message_preview', ${previewText(content, 120)}::text)`,
      },
      { onlyIf: sql`c.lease_owner = ${leaseOwner}` },
    ),
    familyConditionStatement(threadId),
  ]);
  const turn = leased![0] as { turn_index: number; root_thread_id: string } | undefined;
  const message = opened![0] as { id: string } | undefined;
  if (turn) {
    // Statement 2 captures whenever statement 1 took the lease, and the conversation row exists.
    if (!message || !live![0]) throw new Error('the turn opened without its message or workspace');
    return {
      turnIndex: turn.turn_index,
      userMessageId: message.id,
      leaseOwner,
      familyId: turn.root_thread_id,
      workspace: workspaceOf(live![0] as LiveRow),
      condition: (conditions![0] as FamilyCondition | undefined) ?? null,
    };
  }
  // Nothing matched: say why (the transaction wrote nothing).
  await requireThreadAccess(db, actor, threadId, 'edit');
  throw new AppError('turn_in_progress', 'Another turn is running on this conversation; try again when it ends');
}

/** A short title from a first message: its first line in plain text (no markdown, no directive prefix), clamped. */
export function titleFrom(content: string): string {
  return previewText(plainTitleFromMessage(content), 60) || DEFAULT_CONVERSATION_TITLE;
}
