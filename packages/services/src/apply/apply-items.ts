// Apply (docs/branching.md, "Apply"): chosen workspace items of one step of a family land on one of
// its threads as ONE new turn, under that thread's turn lease, with no model call. The turn opens
// like any other — snapshot k captured from the live rows first, so the step before stays
// restorable — then the items are written (keys kept), then a `system` entry of kind `apply`
// records the provenance the graph draws as an `apply` edge.
import { appendFamilyEvent } from '../live/family-events';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  AppError,
  applyEntryText,
  compareWorkspaces,
  graphNodeId,
  ownerOfTurn,
  planApply,
  type ApplyDryRun,
  type ApplyItem,
  type ApplyPlan,
  type ApplyProvenance,
  type ApplyResult,
  type ApplyState,
  type CompareState,
  type NodeRef,
} from '@trellis/domain';
import type { Db } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from '../conversations/conversation-access';
import { recordStepChanges } from '../compare/record-step-changes';
import { loadStepLabels } from '../graph/step-labels';
import { loadLineage, type LineageRow } from '../lineage/load-lineage';
import { snapshotCaptureCtes } from '../turns/snapshot-capture';
import { DEFAULT_LEASE_TIMING, leaseExpiry, leaseIsFree, releaseLease, type LeaseTiming } from '../turns/turn-lease';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import { readApplySource, toApplyState, type ApplySourceState } from './source-state';
import { writeAppliedState } from './write-applied-state';

export interface ApplyItemsInput {
  /** The target thread (`{id}` of the route). */
  threadId: string;
  source: NodeRef;
  items: ApplyItem[];
  note?: string | undefined;
  dryRun?: boolean | undefined;
}

type ApplyDeps = Pick<ServiceDeps, 'db' | 'logger'> & Partial<Pick<ServiceDeps, 'gate' | 'instanceId'>>;

export async function applyItems(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: ApplyItemsInput & { dryRun: true },
  options?: { lease?: LeaseTiming },
): Promise<ApplyDryRun>;
export async function applyItems(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: ApplyItemsInput & { dryRun?: false | undefined },
  options?: { lease?: LeaseTiming },
): Promise<ApplyResult>;
export async function applyItems(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: ApplyItemsInput,
  options?: { lease?: LeaseTiming },
): Promise<ApplyResult | ApplyDryRun>;
export async function applyItems(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: ApplyItemsInput,
  options: { lease?: LeaseTiming } = {},
): Promise<ApplyResult | ApplyDryRun> {
  const { db } = deps;
  const [{ conversation }, sourceLineage] = await Promise.all([
    requireOwnedThread(db, actor, input.threadId),
    loadLineage(db, input.source.thread_id),
  ]);
  const sourceNodeId = resolveSource(conversation.rootThreadId, sourceLineage, input.source);
  const [source, labelOf] = await Promise.all([
    readApplySource(db, sourceLineage, input.source.turn),
    loadStepLabels(db, [input.threadId]),
  ]);
  const sourceRef = { node_id: sourceNodeId, label: labelOf(input.source.thread_id, input.source.turn) };

  if (input.dryRun) {
    const before = toApplyState(await readLiveWorkspace(db, input.threadId));
    const plan = planApply(source.state, before, input.items);
    return {
      dry_run: true,
      source: sourceRef,
      applied: plan.applied,
      skipped: plan.skipped,
      ...compareWorkspaces(toCompareState(before), toCompareState(plan.state)),
    };
  }

  const write = () => writeUnderLease(deps, actor, input, { source, sourceRef }, options.lease ?? DEFAULT_LEASE_TIMING);
  const { turnIndex, plan } = await (deps.gate ? deps.gate.run('the apply', write) : write());
  // Like a settled turn: the step's change counts, stored after the answer (the graph of this process
  // waits for them, TurnGate.followUpsOf; the next turn recomputes them should they be lost).
  const summarize = () => loadLineage(db, input.threadId).then((lineage) => recordStepChanges(db, lineage, turnIndex));
  const onSummaryError = (error: unknown) =>
    deps.logger.warn({ threadId: input.threadId, turnIndex, err: error }, 'the step change summary could not be stored');
  if (deps.gate) void deps.gate.followUp(input.threadId, summarize, onSummaryError);
  else await summarize().catch(onSummaryError);
  return {
    thread_id: input.threadId,
    turn_index: turnIndex,
    // The family read before the write names the new step too: a turn of the target's own (above its
    // branch point) takes the target's suffix, which an added turn on the target does not change.
    label: labelOf(input.threadId, turnIndex),
    source: sourceRef,
    applied: plan.applied,
    skipped: plan.skipped,
  };
}

/**
 * The apply's turn: take the lease (its own statement, so a turn that arrives meanwhile is refused
 * with 409 rather than queued behind it), then one transaction, then release the lease.
 */
async function writeUnderLease(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: ApplyItemsInput,
  { source, sourceRef }: { source: ApplySourceState; sourceRef: { node_id: string; label: string } },
  timing: LeaseTiming,
): Promise<{ turnIndex: number; plan: ApplyPlan }> {
  const { db } = deps;
  const leaseOwner = await takeLease(db, actor, input.threadId, timing, deps.instanceId ?? null);
  try {
    return await db.transaction(async (tx) => {
      // The lease is ours; the row lock makes workspace edits wait until the apply commits, so the
      // snapshot and the plan read the same rows the writes replace.
      const [held] = await tx.execute(sql`
        select 1 from conversations where thread_id = ${input.threadId} and lease_owner = ${leaseOwner} for no key update`);
      if (!held) throw new AppError('turn_in_progress', 'The conversation was taken over during the apply; try again');
      const before = toApplyState(await readLiveWorkspace(tx, input.threadId));
      const plan = planApply(source.state, before, input.items);
      if (plan.applied.length === 0) {
        throw AppError.validation([{ path: 'items', message: 'nothing to apply: every item was skipped' }], 'Nothing to apply');
      }
      const provenance: ApplyProvenance = {
        source_node_id: sourceRef.node_id,
        source_label: sourceRef.label,
        items: plan.applied.map((a) => a.description),
        note: input.note || null,
      };
      const entry = applyEntryText(provenance);
      // Turn k opens as a turn does: the clock advances, then snapshot k captures the rows before
      // the items land (the step before the apply restores to exactly them).
      const [turn] = await tx.execute<{ turn_index: number }>(sql`
        update conversations set turn_index = turn_index + 1, message_count = message_count + 1, updated_at = now()
        where thread_id = ${input.threadId}
        returning turn_index`);
      const turnIndex = turn!.turn_index;
      await tx.execute(sql`with ${snapshotCaptureCtes(input.threadId, entry)} select 1`);
      await writeAppliedState(tx, { threadId: input.threadId, turnIndex, before, after: plan.state, artifactNumbers: source.artifactNumbers });
      await tx.execute(sql`
        insert into messages (thread_id, turn_index, role, content, kind, provenance)
        values (${input.threadId}, ${turnIndex}, 'system', ${entry}, 'apply', ${JSON.stringify(provenance)}::jsonb)`);
      await appendFamilyEvent(tx, {
        threadId: input.threadId,
        kind: 'apply',
        data: { turn_index: turnIndex, source_node_id: sourceRef.node_id, items: plan.applied.length },
      });
      return { turnIndex, plan };
    });
  } finally {
    // Released after the commit: a turn queued on the row lock meanwhile still finds it held.
    await releaseLease(db, input.threadId, leaseOwner).catch((error: unknown) =>
      deps.logger.error({ threadId: input.threadId, err: error }, 'apply: lease release failed; it expires on its own'),
    );
  }
}

/**
 * The source must be a step of the target's family: its thread visible (not deleted, not mid-creation),
 * its root the family's, its turn reached. Anything else is a 422 on `source` (not a 404: the path
 * names the target, and a node id from another family says nothing about it). Its node id is the
 * step's owner's, so the graph's apply edge leaves from a real node.
 */
export function resolveSource(rootThreadId: string, lineage: readonly LineageRow[], ref: NodeRef): string {
  const displayed = lineage.at(-1);
  const nodeId = graphNodeId(ref.thread_id, ref.turn);
  if (!displayed || displayed.is_pending || displayed.is_deleted || lineage[0]!.thread_id !== rootThreadId) {
    throw AppError.validation([{ path: 'source', message: `${nodeId} is not a step of this family` }], 'The source is outside this family');
  }
  if (ref.turn > displayed.turn_index) {
    throw AppError.validation([{ path: 'source', message: `${nodeId}: the path has no step ${ref.turn}` }], 'The source step does not exist');
  }
  return graphNodeId(ownerOfTurn(lineage, ref.turn), ref.turn);
}

/** Takes the target's turn lease for the apply, or says why not: 404/403, else a turn is running (409). */
async function takeLease(db: Db, actor: ThreadActor, threadId: string, timing: LeaseTiming, instanceId: string | null): Promise<string> {
  const owner = randomUUID();
  const [taken] = await db.execute(sql`
    update conversations
    set lease_owner = ${owner}, lease_expires_at = ${leaseExpiry(timing)}, lease_instance = ${instanceId}
    where thread_id = ${threadId} and user_id = ${actor.userId} and deleted_at is null and ${leaseIsFree}
      and not exists (select 1 from conversation_branches b
        where b.thread_id = conversations.thread_id and b.status = 'pending')
    returning thread_id`);
  if (taken) return owner;
  await requireOwnedThread(db, actor, threadId);
  throw new AppError('turn_in_progress', 'A turn is running on this conversation; apply when it ends');
}

function toCompareState(state: ApplyState): CompareState {
  return { ...state, artifacts: state.artifacts.map(({ key, title, kind }) => ({ key, title, kind })) };
}
