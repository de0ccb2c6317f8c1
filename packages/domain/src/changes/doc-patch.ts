// A document change is stored as a patch, never as two copies of the body:
// an edit of one sentence in a 100 KB document costs the sentence, not the document.
// Offsets are UTF-16 code units, the unit of JavaScript strings and of the authorship
// spans' `start`/`end`.
import { diffChars } from 'diff';

/**
 * One operation of a patch, read left to right over the old text:
 * `{ r: n }` keeps the next n units, `{ d: n }` drops them, `{ i: text }` inserts text.
 * The retains and deletes of a valid patch add up to the old text's length exactly.
 */
export type DocPatchOp = { r: number } | { d: number } | { i: string };
export type DocPatch = DocPatchOp[];

/** Beyond this many edited units inside the differing middle, the patch is one replace (diff's own bound). */
const MAX_EDIT_LENGTH = 4_000;

/**
 * The patch that turns `before` into `after`: the common prefix and suffix are kept, and the
 * middle is diffed by characters (Myers, bounded); a middle too different to diff cheaply is
 * one delete and one insert. Adjacent operations of a kind are merged; zero-length ones dropped.
 */
export function makeDocPatch(before: string, after: string): DocPatch {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < max - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  // Never split a surrogate pair at the edges of the middle.
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--;
  const oldMid = before.slice(prefix, before.length - suffix);
  const newMid = after.slice(prefix, after.length - suffix);
  const ops: DocPatch = [];
  push(ops, { r: prefix });
  const parts = oldMid && newMid ? diffChars(oldMid, newMid, { maxEditLength: MAX_EDIT_LENGTH }) : undefined;
  if (parts) {
    for (const part of parts) {
      if (part.added) push(ops, { i: part.value });
      else if (part.removed) push(ops, { d: part.value.length });
      else push(ops, { r: part.value.length });
    }
  } else {
    push(ops, { d: oldMid.length });
    push(ops, { i: newMid });
  }
  push(ops, { r: suffix });
  // A trailing retain carries no information once the length is checked; keep patches small.
  const last = ops[ops.length - 1];
  if (last && 'r' in last) ops.pop();
  return ops;
}

/** The text a patch makes of `before`; throws when the patch does not fit the text. */
export function applyDocPatch(before: string, patch: DocPatch): string {
  let at = 0;
  let out = '';
  for (const op of patch) {
    if ('r' in op) {
      if (at + op.r > before.length) throw new RangeError('patch retains past the end of the text');
      out += before.slice(at, at + op.r);
      at += op.r;
    } else if ('d' in op) {
      if (at + op.d > before.length) throw new RangeError('patch deletes past the end of the text');
      at += op.d;
    } else {
      out += op.i;
    }
  }
  // An omitted trailing retain keeps the rest.
  return out + before.slice(at);
}

/**
 * The texts a patch deletes from `before`, in order: stored beside the patch (`before.deleted` of a
 * document change) so a patch can be undone without a copy of the body.
 */
export function deletedTexts(before: string, patch: DocPatch): string[] {
  let at = 0;
  const out: string[] = [];
  for (const op of patch) {
    if ('r' in op) at += op.r;
    else if ('d' in op) {
      out.push(before.slice(at, at + op.d));
      at += op.d;
    }
  }
  return out;
}

/**
 * The text a patch was made from, given the text it made and the texts it deleted
 * ({@link deletedTexts}): walks the patch over `after`, putting deletions back and taking insertions out.
 */
export function revertDocPatch(after: string, patch: DocPatch, deleted: readonly string[]): string {
  let at = 0;
  let next = 0;
  let out = '';
  for (const op of patch) {
    if ('r' in op) {
      if (at + op.r > after.length) throw new RangeError('patch retains past the end of the text');
      out += after.slice(at, at + op.r);
      at += op.r;
    } else if ('d' in op) {
      const text = deleted[next++];
      if (text === undefined || text.length !== op.d) throw new RangeError('deleted text does not fit the patch');
      out += text;
    } else {
      if (after.slice(at, at + op.i.length) !== op.i) throw new RangeError('patch inserts text the later text does not hold');
      at += op.i.length;
    }
  }
  return out + after.slice(at);
}

/** Units the patch's old text must have at least (its retains and deletes). */
export function patchBaseLength(patch: DocPatch): number {
  let n = 0;
  for (const op of patch) if ('r' in op) n += op.r; else if ('d' in op) n += op.d;
  return n;
}

function push(ops: DocPatch, op: DocPatchOp): void {
  if ('r' in op ? op.r === 0 : 'd' in op ? op.d === 0 : op.i === '') return;
  const last = ops[ops.length - 1];
  if (last && 'r' in last && 'r' in op) last.r += op.r;
  else if (last && 'd' in last && 'd' in op) last.d += op.d;
  else if (last && 'i' in last && 'i' in op) last.i += op.i;
  else ops.push({ ...op });
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
