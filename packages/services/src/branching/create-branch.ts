import { randomUUID } from 'node:crypto';
import { appendFamilyEvent } from '../live/family-events';
import { eq, sql } from 'drizzle-orm';
import {
  AppError,
  applyWorkspaceOverride,
  newThreadId,
  type BranchCreated,
  type CreateBranch,
  type WorkspaceOverride,
} from '@trellis/domain';
import { conversationBranches, conversations, type DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { assertAccessReading, type ThreadActor } from '../conversations/conversation-access';
import { assertBranchingAllowed } from '../studies/study-conditions';
import { lineageFacts, loadLineage, type LineageRow } from '../lineage/load-lineage';
import { modelContextMessages, readPathMessages } from './path-messages';
import { seedAndActivate } from './pending-threads';
import { readRestoreState } from './restore-state';
import { writeWorkspace } from '../workspace/write-workspace';
import { branchCut, copyBranchWorkspace } from '../workspace/write/workspace-copies';

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
  await validateFork(deps.db, lineage, actor, k);
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
    // Every thread of a family carries its owner, whoever made the branch (an editor may).
    ownerId: lineage.at(-1)!.user_id,
    userId: actor.userId,
    k,
    reason: input.reason ?? null,
    lineage,
    override: input.workspace,
  });

  await seedAndActivate(deps, {
    userId: actor.userId,
    threads: [
      {
        threadId: childId,
        // Replaced, failed and stopped attempts are no context; they cost the window a few rows at most.
        prefix: async () =>
          modelContextMessages(await readPathMessages(deps.db, lineage, { from: 1, upTo: k, lastMessages: deps.contextBudget.maxMessages })),
      },
    ],
    failureMessage: 'The branch could not be created; nothing was left behind. Try again.',
  });
  // After the activation (the branch is visible): the family's tabs redraw their trajectory.
  await appendFamilyEvent(deps.db, {
    threadId: childId,
    kind: 'branch_created',
    data: { parent_thread_id: threadId, branch_point_turn: k, reason: input.reason ?? null },
  }).catch((error: unknown) => deps.logger.warn({ threadId: childId, err: error }, 'branch_created event not recorded'));
  return { thread_id: childId, parent_thread_id: threadId, branch_point_turn: k, title: input.title ?? parent.title };
}

/** The seed's validation table, in its order (from_turn < 0 is the contract's 422). */
async function validateFork(db: DbOrTx, lineage: LineageRow[], actor: ThreadActor, k: number): Promise<void> {
  const displayed = lineage.at(-1);
  if (!displayed) throw AppError.notFound('Conversation');
  await assertAccessReading(db, lineageFacts(displayed), actor, 'edit');
  await assertBranchingAllowed(db, displayed.root_thread_id);
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
    /** The family's owner (the thread's `user_id`). */
    ownerId: string;
    /** Who makes the branch (the branch row's `user_id`, the author of an edited preview's changes). */
    userId: string;
    k: number;
    reason: string | null;
    lineage: LineageRow[];
    override: WorkspaceOverride | undefined;
  },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // The parent's writers wait (its row, shared) while the state at k is read and its log is cut,
    // so the copy and the inherited log agree even at the live tip.
    await tx.execute(sql`select 1 from conversations where thread_id = ${b.parentId} for share`);
    const [{ state }, cut] = [await readRestoreState(tx, b.lineage, b.k), await branchCut(tx, b.parentId, b.k)];
    await tx.insert(conversations).values({
      threadId: b.childId,
      rootThreadId: b.rootThreadId,
      userId: b.ownerId,
      title: b.title,
      isTitleProvisional: b.isTitleProvisional,
      objective: state.objective,
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
      parentChangeSeq: cut.parentChangeSeq,
    });
    await copyBranchWorkspace(tx, { childId: b.childId, parentId: b.parentId, k: b.k, state, documentVersion: cut.documentVersion });
    // The edited preview's differences from the state at k are the branch's first changes (via `preview_edit`).
    if (b.override) {
      await writeWorkspace(
        { tx },
        {
          threadId: b.childId,
          author: { actor: 'person', actorId: b.userId, via: 'preview_edit' },
          edits: [
            {
              kind: 'state',
              target: applyWorkspaceOverride(state, b.override),
              options: { removeMissing: true, turnIndex: b.k },
            },
          ],
        },
      );
    }
  });
}