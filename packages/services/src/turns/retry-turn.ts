// Retry in place (issue 24): turn k's failed or stopped reply is answered again at the same step —
// no new user message, no new step, no new snapshot; the same turn number and label. The new reply
// is the next attempt of turn k (`messages.attempt`); the earlier attempts stay in the transcript
// (the chat pages through them) but never reach a model again: the agent replaces the attempt in its
// working context (RunTurnInput.replacesAttempt), and branch prefixes read only a turn's last attempt.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import { pipelinedTransaction } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { leaseAccessSql, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { liveWorkspaceStatement, workspaceOf, type LiveRow } from '../workspace/read-live-workspace';
import { startTurn, type OpenedRun, type TurnStream } from './send-turn';
import { DEFAULT_LEASE_TIMING, leaseExpiry, leaseIsFree, type LeaseTiming } from './turn-lease';

export interface RetryTurnInput {
  threadId: string;
  turn: number;
  /** Aborts the model when the client goes away (the route passes `request.signal`). */
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
  // One transaction, sent in one round trip: take the lease only when turn k is this thread's
  // latest turn, opened by this thread's user message, and its latest reply failed or stopped; then
  // read the question and the next attempt number, and the live workspace the model call reads.
  const [leased, asked, live] = await pipelinedTransaction(deps.db, [
    sql`
      update conversations
      set lease_owner = ${leaseOwner}, lease_expires_at = ${leaseExpiry(timing)}, lease_instance = ${deps.instanceId ?? null},
        updated_at = now()
      where thread_id = ${threadId} and ${leaseAccessSql(actor)} and deleted_at is null and ${leaseIsFree}
        and turn_index = ${turn}
        and not exists (select 1 from conversation_branches b where b.thread_id = conversations.thread_id and b.status = 'pending')
        and exists (select 1 from messages u where u.thread_id = ${threadId} and u.turn_index = ${turn} and u.role = 'user')
        and (select a.status from messages a where a.thread_id = ${threadId} and a.turn_index = ${turn} and a.role = 'assistant'
          order by a.seq desc limit 1) in ${RETRYABLE}
      returning turn_index, root_thread_id`,
    sql`
      select u.id::text as id, u.content,
        (select coalesce(max(a.attempt), 0) + 1 from messages a
          where a.thread_id = u.thread_id and a.turn_index = u.turn_index and a.role = 'assistant') as attempt
      from messages u where u.thread_id = ${threadId} and u.turn_index = ${turn} and u.role = 'user'
      order by u.seq desc limit 1`,
    liveWorkspaceStatement(threadId, { artifactContent: false }),
  ]);
  const taken = leased![0] as { turn_index: number; root_thread_id: string } | undefined;
  const question = asked![0] as { id: string; content: string; attempt: number } | undefined;
  if (!taken || !question || !live![0]) await refuse(deps, actor, input);
  const opened: OpenedRun = {
    turnIndex: turn,
    userMessageId: question!.id,
    leaseOwner,
    workspace: workspaceOf(live![0] as LiveRow),
    attempt: question!.attempt,
    familyId: taken!.root_thread_id,
  };
  return startTurn(deps, { threadId, content: question!.content, signal: input.signal }, opened, timing);
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
