// The bridge between the change log's document patches and CodeMirror's collaboration model. A live
// editor sends and receives its edits as `DocPatch`es (the format the change log stores, so the
// server never translates what it keeps); an editor built on CodeMirror turns them into a `ChangeSet`
// through its JSON form, which needs the length of the text the patch applies to. Pure, so the
// server (rebasing a stale push) and the browser (receiving) convert the same way.
import type { DocPatch, DocPatchOp } from './doc-patch';

/** CodeMirror's `ChangeSet.toJSON()`: a number keeps that many units, `[n, ...lines]` replaces n units with the lines. */
export type ChangeSetJson = Array<number | [number, ...string[]]>;

/**
 * The JSON form of the change set that `patch` makes of a text of `length` UTF-16 units (lines are
 * split on "\n" only: an editor configured with "\n" as its line separator keeps any "\r" as text).
 * Throws a RangeError when the patch does not fit the length.
 */
export function docPatchToChangeSetJson(patch: DocPatch, length: number): ChangeSetJson {
  const out: ChangeSetJson = [];
  let at = 0;
  let pendingDelete = 0;
  const flushDelete = () => {
    if (pendingDelete > 0) out.push([pendingDelete]);
    pendingDelete = 0;
  };
  for (const op of patch) {
    if ('r' in op) {
      if (op.r === 0) continue;
      flushDelete();
      out.push(op.r);
      at += op.r;
    } else if ('d' in op) {
      pendingDelete += op.d;
      at += op.d;
    } else if (op.i !== '') {
      out.push([pendingDelete, ...op.i.split('\n')]);
      pendingDelete = 0;
    }
    if (at > length) throw new RangeError(`patch reaches past the end of a text of ${length} units`);
  }
  flushDelete();
  if (at < length) out.push(length - at);
  return out;
}

/** The patch of a change set's JSON form (its trailing retain dropped, as `makeDocPatch` does). */
export function changeSetJsonToDocPatch(json: ChangeSetJson): DocPatch {
  const ops: DocPatch = [];
  for (const part of json) {
    if (typeof part === 'number') push(ops, { r: part });
    else {
      const [deleted, ...lines] = part;
      push(ops, { d: deleted });
      if (lines.length > 0) push(ops, { i: lines.join('\n') });
    }
  }
  const last = ops.at(-1);
  if (last && 'r' in last) ops.pop();
  return ops;
}

/** How much longer the text is after the patch (insertions minus deletions). */
export function patchLengthDelta(patch: DocPatch): number {
  let delta = 0;
  for (const op of patch) {
    if ('d' in op) delta -= op.d;
    else if ('i' in op) delta += op.i.length;
  }
  return delta;
}

function push(ops: DocPatch, op: DocPatchOp): void {
  if ('r' in op ? op.r === 0 : 'd' in op ? op.d === 0 : op.i === '') return;
  const last = ops.at(-1);
  if (last && 'r' in last && 'r' in op) last.r += op.r;
  else if (last && 'd' in last && 'd' in op) last.d += op.d;
  else if (last && 'i' in last && 'i' in op) last.i += op.i;
  else ops.push({ ...op });
}
