import { AppError, regeneratedTitle, REGENERATE_REASON, toPathRefInput, type TurnEvent } from '@trellis/domain';
import { conversationBranches } from '@trellis/db';
import { and, count, eq } from 'drizzle-orm';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { createBranch } from '../branching/create-branch';
import { readPathMessages } from '../branching/path-messages';
import { sendTurn } from '../turns/send-turn';
import { resolveRefs } from '../paths/resolve-refs';
import { forkPointOfStep } from './fork-point';

/**
 * Another answer to step k: a sibling branch at k−1 that re-sends step k's user
 * message. The stream's first event names the new thread (`branch`), then the
 * usual turn events follow.
 */
export async function regenerateTurn(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: { threadId: string; turn: number; signal?: AbortSignal },
): Promise<AsyncIterable<TurnEvent> & { threadId: string }> {
  const fork = await forkPointOfStep(deps.db, actor, input);
  const [question] = (await readPathMessages(deps.db, fork.lineage, { from: input.turn, upTo: input.turn })).filter(
    (m) => m.role === 'user',
  );
  if (!question) throw new AppError('conflict', `Step ${input.turn} has no user message to answer again`);
  // The question keeps the paths it referenced: the new answer may read them again. They are checked
  // before the branch is made, so a stale one (a path deleted since) refuses without leaving an empty branch.
  const refs = await resolveRefs(deps.db, actor, fork.baseThreadId, question.refs?.map(toPathRefInput));
  const earlier = await deps.db
    .select({ n: count() })
    .from(conversationBranches)
    .where(
      and(
        eq(conversationBranches.parentThreadId, fork.baseThreadId),
        eq(conversationBranches.branchPointTurn, fork.fromTurn),
        eq(conversationBranches.reason, REGENERATE_REASON),
      ),
    );
  const branch = await createBranch(deps, actor, {
    threadId: fork.baseThreadId,
    from_turn: fork.fromTurn,
    reason: REGENERATE_REASON,
    // Numbered after the step's earlier regenerations, so each has a name of its own.
    title: regeneratedTitle(input.turn, (earlier[0]?.n ?? 0) + 1),
  });
  const turn = await sendTurn(deps, actor, { threadId: branch.thread_id, content: question.content, checkedRefs: refs, signal: input.signal });
  return {
    threadId: branch.thread_id,
    async *[Symbol.asyncIterator]() {
      yield { event: 'branch', data: { thread_id: branch.thread_id } } satisfies TurnEvent;
      yield* turn;
    },
  };
}
