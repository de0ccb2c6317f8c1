// Undo an apply: a new step on the same path that puts every item the apply wrote back as it was
// before it (snapshot k, taken before the items landed), on top of whatever changed since elsewhere
// (a three-way revert). The apply stays in history; the undo's entry says which apply it reverses
// and draws an edge from it, like the apply's own. Refused with 409 only when a later change touched
// what the apply wrote (the change log says what changed, when and by whom).
import { sql } from 'drizzle-orm';
import { AppError, graphNodeId, type ApplyProvenance, type UndoApplyResult } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadStepLabels } from '../graph/step-labels';
import { DEFAULT_LEASE_TIMING, type LeaseTiming } from '../turns/turn-lease';
import { readSnapshotState } from '../workspace/snapshot-state';
import { writeWorkspace, type LaterChange } from '../workspace/write-workspace';
import { runApplyTurn, settleApplyStep, type ApplyDeps } from './apply-items';

export async function undoApply(
  deps: ApplyDeps,
  actor: ThreadActor,
  input: { threadId: string; turn: number },
  options: { lease?: LeaseTiming } = {},
): Promise<UndoApplyResult> {
  const { threadId, turn: k } = input;
  // Read side by side, as an apply does; the entry and the labels are used only once ownership holds.
  const [, entry, labelOf] = await Promise.all([
    requireThreadAccess(deps.db, actor, threadId, 'edit'),
    readApplyEntry(deps.db, threadId, k),
    loadStepLabels(deps.db, [threadId]),
  ]);
  if (entry === null) throw AppError.notFound(`An apply at step ${k}`);
  const undoes = { node_id: graphNodeId(threadId, k), label: labelOf(threadId, k) };
  let restored: string[] = [];
  let kept: string[] = [];

  const run = () => runApplyTurn(deps, actor, threadId, options.lease ?? DEFAULT_LEASE_TIMING, async (tx) => {
    const undone = await tx.execute<{ turn_index: number }>(sql`
      select turn_index from messages
      where thread_id = ${threadId} and kind = 'apply' and (provenance->>'undoes')::int = ${k} limit 1`);
    if (undone[0]) {
      throw new AppError('conflict', `The apply at step ${undoes.label} was already undone at step ${labelOf(threadId, undone[0].turn_index)}`);
    }
    const applied = await tx.execute<{ seq: number } & Record<string, unknown>>(sql`
      select seq from workspace_changes where thread_id = ${threadId} and turn = ${k} and via = 'apply' order by seq`);
    if (applied.length === 0) throw new AppError('conflict', `The apply at step ${undoes.label} changed nothing to undo`);
    const before = await readSnapshotState(tx, threadId, k);
    if (before === null) throw new AppError('conflict', `The workspace before step ${undoes.label} cannot be read back`);
    // A three-way revert on top of what came after the apply: refused only when a later change
    // touched what the apply wrote (an applied item, the applied words of the document); a change
    // elsewhere stays as it is. Planned first (under the turn's lock), so the entry can say what it puts back.
    const revert = (dryRun: boolean) =>
      writeWorkspace(
        { tx },
        {
          threadId,
          author: { actor: 'person', actorId: actor.userId, via: 'apply', viaSource: undoes.node_id },
          edits: [{ kind: 'revert', seqs: applied.map((c) => Number(c.seq)), before, onLater: 'refuse', mark: false, dryRun }],
        },
      );
    const [plan] = (await revert(true)).outcomes;
    if (plan.blocked.length > 0) {
      const later = plan.blocked;
      throw new AppError(
        'conflict',
        `Cannot undo the apply at step ${undoes.label}: ${later.map((c) => describeLater(c, labelOf(threadId, c.turn))).join('; ')} since`,
        { details: { changed: later.map((c) => ({ kind: c.kind, key: c.key, seq: c.seq, turn: c.turn, actor: c.actor })) } },
      );
    }
    restored = plan.restored;
    kept = plan.kept;
    const provenance: ApplyProvenance = {
      source_node_id: undoes.node_id,
      source_label: undoes.label,
      items: restored,
      note: null,
      undoes: k,
    };
    return {
      provenance,
      entry: `Undid the apply at step ${undoes.label}: ${restored.join(', ')} put back as before it`,
      write: () => revert(false),
    };
  });
  const turnIndex = await (deps.gate ? deps.gate.run('the undo', run) : run());
  await settleApplyStep(deps, threadId, turnIndex);
  return { thread_id: threadId, turn_index: turnIndex, label: labelOf(threadId, turnIndex), undoes, restored, kept };
}

async function readApplyEntry(db: DbOrTx, threadId: string, k: number): Promise<ApplyProvenance | null> {
  const [row] = await db.execute<{ provenance: ApplyProvenance | null }>(sql`
    select provenance from messages where thread_id = ${threadId} and turn_index = ${k} and kind = 'apply' limit 1`);
  return row?.provenance ?? null;
}

function describeLater(change: LaterChange, label: string): string {
  const who = change.actor === 'agent' ? 'the agent' : change.actor === 'person' ? 'you' : 'the system';
  const what = change.kind === 'document_title' ? 'the document title' : change.kind === 'document' ? 'the document' : `a ${change.kind}`;
  return `${who} changed ${what} at step ${label}`;
}
