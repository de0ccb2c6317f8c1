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
  applyDocumentChange,
  copiedRuns,
  type AppliedDocumentItem,
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
import type { Db, DbOrTx } from '@trellis/db';
import { readAuthorship } from '../authorship/get-authorship';
import { pathSegments } from '../changes/path-log';
import type { ServiceDeps } from '../deps';
import { leaseAccessSql, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { recordStepChanges } from '../compare/record-step-changes';
import { loadStepLabels } from '../graph/step-labels';
import { loadLineage, loadPathLineage, type LineageRow, type PathLineageRow } from '../lineage/load-lineage';
import { snapshotCaptureCtes } from '../turns/snapshot-capture';
import { DEFAULT_LEASE_TIMING, leaseExpiry, leaseIsFree, releaseLease, type LeaseTiming } from '../turns/turn-lease';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import { readApplySource, toApplyState, type ApplySourceState } from './source-state';
import { writeWorkspace, type DocumentChangeMaker } from '../workspace/write-workspace';

export interface ApplyItemsInput {
  /** The target thread (`{id}` of the route). */
  threadId: string;
  source: NodeRef;
  items: ApplyItem[];
  note?: string | undefined;
  dryRun?: boolean | undefined;
}

export type ApplyDeps = Pick<ServiceDeps, 'db' | 'logger'> & Partial<Pick<ServiceDeps, 'gate' | 'instanceId'>>;

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
    requireThreadAccess(db, actor, input.threadId, 'edit'),
    loadPathLineage(db, input.source.thread_id),
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

  const write = () => writeUnderLease(deps, actor, input, { source, sourceRef, sourceLineage }, options.lease ?? DEFAULT_LEASE_TIMING);
  const { turnIndex, plan } = await (deps.gate ? deps.gate.run('the apply', write) : write());
  await settleApplyStep(deps, input.threadId, turnIndex);
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
 * Like a settled turn: the step's change counts, stored after the answer (the graph of this process
 * waits for them, TurnGate.followUpsOf; the next turn recomputes them should they be lost).
 */
export async function settleApplyStep(deps: ApplyDeps, threadId: string, turnIndex: number): Promise<void> {
  const { db } = deps;
  const summarize = () => loadLineage(db, threadId).then((lineage) => recordStepChanges(db, lineage, turnIndex));
  const onSummaryError = (error: unknown) =>
    deps.logger.warn({ threadId, turnIndex, err: error }, 'the step change summary could not be stored');
  if (deps.gate) void deps.gate.followUp(threadId, summarize, onSummaryError);
  else await summarize().catch(onSummaryError);
}

/** An apply's plan, written as one new turn (see {@link runApplyTurn}). */
async function writeUnderLease(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: ApplyItemsInput,
  {
    source,
    sourceRef,
    sourceLineage,
  }: { source: ApplySourceState; sourceRef: { node_id: string; label: string }; sourceLineage: readonly PathLineageRow[] },
  timing: LeaseTiming,
): Promise<{ turnIndex: number; plan: ApplyPlan }> {
  let plan: ApplyPlan | undefined;
  const turnIndex = await runApplyTurn(deps, actor, input.threadId, timing, async (tx) => {
    const before = toApplyState(await readLiveWorkspace(tx, input.threadId));
    const planned = planApply(source.state, before, input.items);
    plan = planned;
    if (planned.applied.length === 0) {
      throw AppError.validation([{ path: 'items', message: 'nothing to apply: every item was skipped' }], 'Nothing to apply');
    }
    const provenance: ApplyProvenance = {
      source_node_id: sourceRef.node_id,
      source_label: sourceRef.label,
      items: planned.applied.map((a) => a.description),
      note: input.note || null,
    };
    // Applied text keeps its authors: the source step's spans travel in the change's attribution.
    const documentChange =
      planned.state.document.content === before.document.content
        ? undefined
        : await sourceDocumentChange(tx, sourceLineage, input.source.turn, planned.applied.map((a) => a.item));
    return {
      provenance,
      entry: applyEntryText(provenance),
      // The items land through the write path (the row lock is held): change rows via `apply`, naming the source node.
      write: (turn) =>
        writeWorkspace(
          { tx },
          {
            threadId: input.threadId,
            author: { actor: 'person', actorId: actor.userId, via: 'apply', viaSource: sourceRef.node_id },
            edits: [
              {
                kind: 'state',
                target: planned.state,
                options: { removeMissing: false, turnIndex: turn, artifactNumbers: source.artifactNumbers, documentChange },
              },
            ],
          },
        ),
    };
  });
  return { turnIndex, plan: plan! };
}

/** What an apply-like turn writes: its transcript entry and provenance, and the workspace write itself. */
export interface ApplyTurnBody {
  entry: string;
  provenance: ApplyProvenance;
  write: (turnIndex: number) => Promise<unknown>;
}

/**
 * An apply-like turn (an apply, or the undo of one): take the lease (its own statement, so a turn
 * that arrives meanwhile is refused with 409 rather than queued behind it), then one transaction —
 * the clock advances, snapshot k captures the rows before anything lands (the step before stays
 * restorable) beside the `system` entry of kind `apply` that records the provenance, the body
 * writes, the family hears of the apply — then release the lease. `prepare` reads under the row lock and may refuse by throwing.
 */
export async function runApplyTurn(
  deps: ApplyDeps,
  actor: ThreadActor,
  threadId: string,
  timing: LeaseTiming,
  prepare: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<ApplyTurnBody>,
): Promise<number> {
  const { db } = deps;
  const leaseOwner = await takeLease(db, actor, threadId, timing, deps.instanceId ?? null);
  try {
    return await db.transaction(async (tx) => {
      // The lease is ours; the row lock makes workspace edits wait until the turn commits, so the
      // snapshot and the plan read the same rows the writes replace.
      const [held] = await tx.execute(sql`
        select 1 from conversations where thread_id = ${threadId} and lease_owner = ${leaseOwner} for no key update`);
      if (!held) throw new AppError('turn_in_progress', 'The conversation was taken over meanwhile; try again');
      const body = await prepare(tx);
      const [turn] = await tx.execute<{ turn_index: number }>(sql`
        update conversations set turn_index = turn_index + 1, message_count = message_count + 1, updated_at = now()
        where thread_id = ${threadId}
        returning turn_index`);
      const turnIndex = turn!.turn_index;
      // Snapshot k and the turn's `system` entry in one statement, as a turn opens (begin-turn.ts).
      await tx.execute(sql`
        with ${snapshotCaptureCtes(threadId, body.entry)}
        insert into messages (thread_id, turn_index, role, content, kind, provenance)
        select c.thread_id, c.turn_index, 'system', ${body.entry}, 'apply', ${JSON.stringify(body.provenance)}::jsonb from captured c`);
      await body.write(turnIndex);
      await appendFamilyEvent(tx, {
        threadId,
        kind: 'apply',
        data: { turn_index: turnIndex, source_node_id: body.provenance.source_node_id, items: body.provenance.items.length },
      });
      return turnIndex;
    });
  } finally {
    // Released after the commit: a turn queued on the row lock meanwhile still finds it held.
    await releaseLease(db, threadId, leaseOwner).catch((error: unknown) =>
      deps.logger.error({ threadId, err: error }, 'apply: lease release failed; it expires on its own'),
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
    where thread_id = ${threadId} and ${leaseAccessSql(actor)} and deleted_at is null and ${leaseIsFree}
      and not exists (select 1 from conversation_branches b
        where b.thread_id = conversations.thread_id and b.status = 'pending')
    returning thread_id`);
  if (taken) return owner;
  await requireThreadAccess(db, actor, threadId, 'edit');
  throw new AppError('turn_in_progress', 'A turn is running on this conversation; apply when it ends');
}

/**
 * How the apply's document change is made: the runs it copied from the source step's document are
 * inserted whole and take that document's authors (read at the source step).
 */
async function sourceDocumentChange(
  tx: DbOrTx,
  sourceLineage: readonly PathLineageRow[],
  sourceTurn: number,
  items: readonly ApplyItem[],
): Promise<DocumentChangeMaker> {
  const segments = pathSegments(sourceLineage);
  const { state } = await readAuthorship(tx, segments, sourceTurn);
  const documentItems = items.flatMap((item): AppliedDocumentItem[] =>
    item.kind === 'document' ? [{ kind: 'document' }] : item.kind === 'section' ? [{ kind: 'section', heading: item.heading }] : [],
  );
  const threadId = sourceLineage.at(-1)!.thread_id;
  return (current, next) =>
    applyDocumentChange(current, next, copiedRuns(state.text, next, documentItems), state.spans, threadId);
}

function toCompareState(state: ApplyState): CompareState {
  return { ...state, artifacts: state.artifacts.map(({ key, title, kind }) => ({ key, title, kind })) };
}
