// Retry in place: turn k's failed or stopped reply is answered again at the same step — no new user
// message, no new step, no new snapshot; the same turn number and label — from the workspace the
// turn began with: what the earlier attempts wrote is taken back first (docs/branching.md). The new reply
// is the next attempt of turn k (`messages.attempt`); the earlier attempts stay in the transcript
// (the chat pages through them) but never reach a model again: the agent replaces the attempt in its
// working context (RunTurnInput.replacesAttempt), and branch prefixes read only a turn's last attempt.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AppError, toPathRefInput, type PathRef } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { actorUserId, leaseAccessSql, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { liveWorkspaceStatement, workspaceOf, type LiveRow } from '../workspace/read-live-workspace';
import { readSnapshotState } from '../workspace/snapshot-state';
import type { Tx } from '../workspace/thread-lock';
import { writeWorkspace } from '../workspace/write-workspace';
import { startTurn, type OpenedRun, type TurnStream } from './send-turn';
import { DEFAULT_LEASE_TIMING, leaseExpiry, leaseIsFree, type LeaseTiming } from './turn-lease';
import { resolveRefs } from '../paths/resolve-refs';
import { pathReaderOf } from '../paths/path-reader';
import { familyConditionStatement, type FamilyCondition } from '../studies/study-conditions';

export interface RetryTurnInput {
  threadId: string;
  turn: number;
  /**
   * Aborts the model (the attempt is stored `interrupted`). Routes do not pass their request's
   * signal: a retry outlives the request that started it, like a send, and Stop is its own request.
   */
  signal?: AbortSignal | undefined;
}

type RetryDeps = Pick<ServiceDeps, 'db' | 'agent' | 'logger'> & Partial<Pick<ServiceDeps, 'gate' | 'instanceId' | 'secrets'>>;

/** The reply statuses a retry answers again. */
const RETRYABLE = sql`('failed', 'interrupted')`;

export async function retryTurn(
  deps: RetryDeps,
  actor: ThreadActor,
  input: RetryTurnInput,
  options: { lease?: LeaseTiming } = {},
): Promise<TurnStream> {
  const timing = options.lease ?? DEFAULT_LEASE_TIMING;
  deps.gate?.admit('your retry');
  const { threadId, turn } = input;
  const leaseOwner = randomUUID();
  // One transaction: take the lease only when turn k is this thread's latest turn, opened by this
  // thread's user message, and its latest reply failed or stopped; read the question and the next
  // attempt number; take back what the earlier attempts of turn k wrote (the attempt starts from the
  // workspace its turn began with, plus the person's edits since); read the live workspace the model
  // call starts from; check the question's references again as they are now (a path deleted since is
  // refused, and the refusal rolls back the lease and the take-back). A retry that cannot start writes nothing.
  const started = await deps.db.transaction(async (tx) => {
    const [taken] = await tx.execute<{ turn_index: number; root_thread_id: string }>(sql`
      update conversations
      set lease_owner = ${leaseOwner}, lease_expires_at = ${leaseExpiry(timing)}, lease_instance = ${deps.instanceId ?? null},
        updated_at = now()
      where thread_id = ${threadId} and ${leaseAccessSql(actor)} and deleted_at is null and ${leaseIsFree}
        and turn_index = ${turn}
        and not exists (select 1 from conversation_branches b where b.thread_id = conversations.thread_id and b.status = 'pending')
        and exists (select 1 from messages u where u.thread_id = ${threadId} and u.turn_index = ${turn} and u.role = 'user')
        and (select a.status from messages a where a.thread_id = ${threadId} and a.turn_index = ${turn} and a.role = 'assistant'
          order by a.seq desc limit 1) in ${RETRYABLE}
      returning turn_index, root_thread_id`);
    if (!taken) return null;
    const [question] = await tx.execute<{ id: string; content: string; attempt: number; refs: PathRef[] | null }>(sql`
      select u.id::text as id, u.content, u.refs,
        (select coalesce(max(a.attempt), 0) + 1 from messages a
          where a.thread_id = u.thread_id and a.turn_index = u.turn_index and a.role = 'assistant') as attempt
      from messages u where u.thread_id = ${threadId} and u.turn_index = ${turn} and u.role = 'user'
      order by u.seq desc limit 1`);
    if (!question) return null;
    const refs = await resolveRefs(tx, actor, threadId, question.refs?.map(toPathRefInput));
    await takeBackEarlierAttempts(tx, threadId, turn, actor);
    const [live] = await tx.execute<LiveRow>(liveWorkspaceStatement(threadId, { artifactContent: false }));
    if (!live) return null;
    const [condition] = await tx.execute<FamilyCondition>(familyConditionStatement(threadId));
    return { taken, question, live, refs, condition: condition ?? null };
  });
  if (!started) return refuse(deps, actor, input);
  const { taken, question, live, refs, condition } = started;
  const opened: OpenedRun = {
    turnIndex: turn,
    userMessageId: question.id,
    leaseOwner,
    workspace: workspaceOf(live),
    attempt: Number(question.attempt),
    familyId: taken.root_thread_id,
    condition,
  };
  return startTurn(deps, { threadId, content: question.content, signal: input.signal }, opened, timing, pathReaderOf(deps, actor, refs));
}

/**
 * The agent's changes of turn k not taken back yet (the earlier attempts'), reverted on top of what
 * came after them: an item or a passage of the document the person changed since stays as the
 * person left it; everything else goes back to snapshot k. The attempts' rows stay in the log,
 * marked `reverted`; the revert's own rows are `via: 'retry'` at step k.
 */
async function takeBackEarlierAttempts(tx: Tx, threadId: string, turn: number, actor: ThreadActor): Promise<void> {
  const attempted = await tx.execute<{ seq: number }>(sql`
    select seq from workspace_changes
    where thread_id = ${threadId} and turn = ${turn} and actor = 'agent' and not reverted order by seq`);
  if (attempted.length === 0) return;
  const before = await readSnapshotState(tx, threadId, turn);
  if (before === null) return;
  await writeWorkspace(
    { tx },
    {
      threadId,
      author: { actor: 'system', actorId: actorUserId(actor), via: 'retry' },
      edits: [{ kind: 'revert', seqs: attempted.map((row) => Number(row.seq)), before, onLater: 'keep', mark: true }],
    },
  );
}

/** Says why the lease was not taken (nothing was written): 404/403, a turn running, or a turn that is not retryable. */
async function refuse(deps: RetryDeps, actor: ThreadActor, input: RetryTurnInput): Promise<never> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'edit');
  if (input.turn > conversation.turnIndex || input.turn < 1) throw AppError.notFound(`Turn ${input.turn}`);
  const [state] = await deps.db.execute<{ is_free: boolean; status: string | null; has_question: boolean }>(sql`
    select ${leaseIsFree} as is_free,
      (select a.status from messages a where a.thread_id = ${input.threadId} and a.turn_index = ${input.turn} and a.role = 'assistant'
        order by a.seq desc limit 1) as status,
      exists (select 1 from messages u where u.thread_id = ${input.threadId} and u.turn_index = ${input.turn} and u.role = 'user') as has_question
    from conversations where thread_id = ${input.threadId}`);
  if (state && !state.is_free) {
    throw new AppError('turn_in_progress', 'Another turn is running on this conversation; try again when it ends');
  }
  if (input.turn !== conversation.turnIndex) {
    throw new AppError('conflict', `Only the latest turn can be retried in place (turn ${conversation.turnIndex}); regenerate turn ${input.turn} instead`);
  }
  if (!state?.has_question) {
    throw new AppError('conflict', `Turn ${input.turn} has no message of this thread to answer again`);
  }
  throw new AppError('conflict', `Turn ${input.turn}’s reply is ${state.status ?? 'not stored yet'}; only a failed or stopped reply can be retried`);
}
