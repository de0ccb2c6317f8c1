// Undo an apply (issue 25): a new step on the same path that puts every item the apply wrote back
// as it was before it (snapshot k, taken before the items landed). The apply stays in history; the
// undo's entry says which apply it reverses and draws an edge from it, like the apply's own. Refused
// with 409 when an item changed after the apply (the change log says what changed, when and by whom).
import { sql } from 'drizzle-orm';
import { AppError, graphNodeId, type ApplyProvenance, type UndoApplyResult } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadStepLabels } from '../graph/step-labels';
import { DEFAULT_LEASE_TIMING, type LeaseTiming } from '../turns/turn-lease';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import { readSnapshotState } from '../workspace/snapshot-state';
import { writeWorkspace, type TargetState } from '../workspace/write-workspace';
import { runApplyTurn, settleApplyStep, type ApplyDeps } from './apply-items';


interface AppliedChange {
  seq: number;
  kind: 'objective' | 'document' | 'document_title' | 'preference' | 'todo' | 'artifact';
  key: string | null;
}

interface LaterChange extends AppliedChange {
  turn: number;
  actor: string;
}

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
    const applied = await tx.execute<AppliedChange & Record<string, unknown>>(sql`
      select seq, kind, key from workspace_changes where thread_id = ${threadId} and turn = ${k} and via = 'apply' order by seq`);
    if (applied.length === 0) throw new AppError('conflict', `The apply at step ${undoes.label} changed nothing to undo`);
    const later = await changesSince(tx, threadId, applied);
    if (later.length > 0) {
      throw new AppError(
        'conflict',
        `Cannot undo the apply at step ${undoes.label}: ${later.map((c) => describeLater(c, labelOf(threadId, c.turn))).join('; ')} since`,
        { details: { changed: later.map((c) => ({ kind: c.kind, key: c.key, seq: c.seq, turn: c.turn, actor: c.actor })) } },
      );
    }
    const before = await readSnapshotState(tx, threadId, k);
    if (before === null) throw new AppError('conflict', `The workspace before step ${undoes.label} cannot be read back`);
    const live = await readLiveWorkspace(tx, threadId, { artifactContent: false });
    const target: TargetState = {};
    const kinds = new Set(applied.map((c) => c.kind));
    const keys = (kind: string) => new Set(applied.filter((c) => c.kind === kind).map((c) => c.key));
    restored = [];
    kept = [];
    if (kinds.has('objective')) {
      target.objective = before.objective;
      restored.push('objective');
    }
    if (kinds.has('document') || kinds.has('document_title')) {
      target.document = before.document;
      restored.push('document');
    }
    for (const kind of ['preference', 'todo'] as const) {
      if (!kinds.has(kind)) continue;
      const touched = keys(kind);
      const wasBefore = new Map((kind === 'preference' ? before.preferences : before.todos).map((item) => [item.key, item]));
      const now = kind === 'preference' ? live.preferences : live.todos;
      // The live list with each touched item put back as it was (or left out when the apply added it).
      const list = now.flatMap((item) => {
        if (!touched.has(item.key)) return [item];
        const old = wasBefore.get(item.key);
        return old ? [{ ...item, ...old }] : [];
      });
      // Items the apply removed (a preference or todo it replaced away) come back too.
      for (const [key, old] of wasBefore) if (touched.has(key) && !now.some((item) => item.key === key)) list.push({ ...old } as never);
      if (kind === 'preference') target.preferences = list.map((p) => ({ key: p.key, text: p.text, locked: 'locked' in p ? Boolean(p.locked) : false }));
      else target.todos = list.map((t) => ({ key: t.key, text: t.text, done: 'done' in t ? Boolean(t.done) : false, depth: 'depth' in t ? Number(t.depth) : 0 }));
      restored.push(`${touched.size} ${kind}${touched.size === 1 ? '' : 's'}`);
    }
    if (kinds.has('artifact')) kept.push(`${keys('artifact').size} artifact${keys('artifact').size === 1 ? '' : 's'} (artifacts are never deleted)`);

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
      write: (turn) =>
        writeWorkspace(
          { tx },
          {
            threadId,
            author: { actor: 'person', actorId: actor.userId, via: 'apply', viaSource: undoes.node_id },
            edits: [{ kind: 'state', target, options: { removeMissing: true, turnIndex: turn } }],
          },
        ),
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

/** Changes after the apply's last one to anything it wrote (the document as a whole, items by key). */
async function changesSince(db: DbOrTx, threadId: string, applied: readonly AppliedChange[]): Promise<LaterChange[]> {
  const last = Math.max(...applied.map((c) => c.seq));
  const keys = applied.flatMap((c) => (c.key === null ? [] : [c.key]));
  const touchesDocument = applied.some((c) => c.kind === 'document' || c.kind === 'document_title');
  const touchesObjective = applied.some((c) => c.kind === 'objective');
  return db.execute<LaterChange & Record<string, unknown>>(sql`
    select seq, turn, kind, key, actor from workspace_changes
    where thread_id = ${threadId} and seq > ${last}
      and (
        ${keys.length > 0 ? sql`key in (${sql.join(keys.map((key) => sql`${key}`), sql`, `)})` : sql`false`}
        or (${touchesDocument} and kind in ('document', 'document_title'))
        or (${touchesObjective} and kind = 'objective')
      )
    order by seq`);
}

function describeLater(change: LaterChange, label: string): string {
  const who = change.actor === 'agent' ? 'the agent' : change.actor === 'person' ? 'you' : 'the system';
  const what = change.kind === 'document_title' ? 'the document title' : change.kind === 'document' ? 'the document' : `a ${change.kind}`;
  return `${who} changed ${what} at step ${label}`;
}
