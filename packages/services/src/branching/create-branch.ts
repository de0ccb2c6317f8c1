import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  AppError,
  applyWorkspaceOverride,
  newThreadId,
  type BranchCreated,
  type CreateBranch,
  type WorkspaceState,
} from '@trellis/domain';
import { conversationBranches, conversations, documents, preferences, todos } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { assertOwnership, type ThreadActor } from '../conversations/conversation-access';
import { loadLineage, type LineageRow } from '../lineage/load-lineage';
import { readPathMessages, withoutReplacedAttempts } from './path-messages';
import { seedAndActivate } from './pending-threads';
import { readRestoreState } from './restore-state';

export type BranchReason = 'continue' | 'edit' | 'regenerate' | (string & {});

/**
 * Forks `threadId` at turn k into a new thread (docs/branching.md, "Creating a branch: three phases and the sweeper").
 * Validation, then three phases with compensation — there is no transaction that
 * spans Postgres and the checkpointer:
 *   TX1   conversation + PENDING branch row + workspace copies + artifacts ≤ k
 *   seed  the working-context prefix into the checkpointer, one state update
 *   TX2   branch row → active
 * A failure after TX1 deletes every row and the checkpointer thread, then 502.
 * Readers never see a pending branch; the sweeper reclaims one left by a crash.
 * Cost follows the size of the change, not k: no snapshot or message is copied
 * (the new thread reads its prefix through the lineage), and the checkpointer
 * receives only the budgeted window.
 */
export async function createBranch(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: CreateBranch & {
    threadId: string;
    /** A final title; without one the branch shows its parent's until its first message names it. */
    title?: string;
  },
): Promise<BranchCreated> {
  // Refused while the process drains; a creation in flight delays the database stop.
  return deps.gate.run('the branch', () => createBranchNow(deps, actor, input));
}

async function createBranchNow(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: CreateBranch & { threadId: string; title?: string },
): Promise<BranchCreated> {
  const { threadId, from_turn: k } = input;
  const lineage = await loadLineage(deps.db, threadId);
  validateFork(lineage, actor, k);
  const { state: restored } = await readRestoreState(deps.db, lineage, k);
  const state = applyWorkspaceOverride(restored, input.workspace);
  const [parent] = await deps.db
    .select({ title: conversations.title, rootThreadId: conversations.rootThreadId })
    .from(conversations)
    .where(eq(conversations.threadId, threadId));
  if (!parent) throw AppError.notFound('Conversation');

  const childId = newThreadId(randomUUID);
  await writePendingBranch(deps, {
    childId,
    parentId: threadId,
    rootThreadId: parent.rootThreadId,
    title: input.title ?? parent.title,
    isTitleProvisional: input.title === undefined,
    userId: actor.userId,
    k,
    reason: input.reason ?? null,
    state,
  });

  await seedAndActivate(deps, {
    userId: actor.userId,
    threads: [
      {
        threadId: childId,
        // A retried turn's earlier attempts are no context (issue 24); they cost the window a few rows at most.
        prefix: async () =>
          withoutReplacedAttempts(await readPathMessages(deps.db, lineage, { from: 1, upTo: k, lastMessages: deps.contextBudget.maxMessages })),
      },
    ],
    failureMessage: 'The branch could not be created; nothing was left behind. Try again.',
  });
  return { thread_id: childId, parent_thread_id: threadId, branch_point_turn: k, title: input.title ?? parent.title };
}

/** The seed's validation table, in its order (from_turn < 0 is the contract's 422). */
function validateFork(lineage: LineageRow[], actor: ThreadActor, k: number): void {
  const displayed = lineage.at(-1);
  if (!displayed) throw AppError.notFound('Conversation');
  assertOwnership({ userId: displayed.user_id, isDeleted: displayed.is_deleted, isPending: displayed.is_pending }, actor);
  if (k > displayed.turn_index) throw AppError.notFound(`Turn ${k}`);
  if (displayed.branch_point_turn !== null && k <= displayed.branch_point_turn) {
    throw new AppError(
      'bad_request',
      `Turn ${k} belongs to an ancestor of this branch (it forked at turn ${displayed.branch_point_turn}); branch from that thread instead`,
    );
  }
}

async function writePendingBranch(
  deps: ServiceDeps,
  b: {
    childId: string;
    parentId: string;
    rootThreadId: string;
    title: string;
    isTitleProvisional: boolean;
    userId: string;
    k: number;
    reason: string | null;
    state: WorkspaceState;
  },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.insert(conversations).values({
      threadId: b.childId,
      rootThreadId: b.rootThreadId,
      userId: b.userId,
      title: b.title,
      isTitleProvisional: b.isTitleProvisional,
      objective: b.state.objective,
      // Turn numbering continues: the first message on the branch is turn k+1.
      turnIndex: b.k,
      // Display-only approximation, as in the seed (two messages per inherited turn).
      messageCount: 2 * b.k,
    });
    await tx.insert(conversationBranches).values({
      threadId: b.childId,
      parentThreadId: b.parentId,
      branchPointTurn: b.k,
      reason: b.reason,
      userId: b.userId,
      status: 'pending',
    });
    await tx.insert(documents).values({ threadId: b.childId, title: b.state.document.title, content: b.state.document.content });
    if (b.state.preferences.length > 0) {
      await tx
        .insert(preferences)
        .values(
          b.state.preferences.map((p, position) => ({
            threadId: b.childId,
            position,
            text: p.text,
            locked: p.locked,
            // A copy keeps the key of the item it copies; a key-less (older) item gets a new one.
            ...(p.key ? { key: p.key } : {}),
          })),
        );
    }
    if (b.state.todos.length > 0) {
      await tx
        .insert(todos)
        .values(
          b.state.todos.map((t, position) => ({
            threadId: b.childId,
            position,
            text: t.text,
            done: t.done,
            depth: t.depth,
            ...(t.key ? { key: t.key } : {}),
          })),
        );
    }
    // Artifacts made up to turn k, in ascending original id order (newest stays last), numbers kept.
    await tx.execute(sql`
      insert into artifacts (thread_id, turn_index, kind, title, content, created_at, key, number)
      select ${b.childId}, turn_index, kind, title, content, created_at, key, number
      from artifacts where thread_id = ${b.parentId} and turn_index <= ${b.k}
      order by id`);
  });
}
