// What an apply writes into `DocumentBodyAfter.attribution` ("applied text keeps its original author"):
// the apply knows which runs of the new text it copied from the source document (a whole document, or
// a section), so those runs take the source's spans exactly and nothing else is looked up. The patch
// is made so that every copied run is inserted whole: a character diff would keep stray letters of the
// target's old text inside the applied section (the old section's author) and credit them wrongly.
import type { DocumentBodyAfter } from '../changes/change';
import { makeDocPatch, type DocPatch, type DocPatchOp } from '../changes/doc-patch';
import { findSection } from '../apply/sections';
import { spanIndexAt } from './spans';
import type { AuthorshipSpan } from './types';

type Attribution = NonNullable<DocumentBodyAfter['attribution']>;

/** `newText[at, at + length)` is a copy of `sourceText[src, src + length)`. */
export interface CopiedRun {
  at: number;
  length: number;
  src: number;
}

/** What an apply brought into the document, by item: the whole document, or a section by heading. */
export type AppliedDocumentItem = { kind: 'document' } | { kind: 'section'; heading: string };

/**
 * The runs of `newText` an apply copied from `sourceText`: the whole text for a document item, each
 * section's body (its trailing blank lines aside: the target keeps its own spacing) for a section
 * item. A run is only named where the two texts hold the same characters, so a wrong guess is
 * impossible; overlapping runs (a section inside an applied document) keep the first.
 */
export function copiedRuns(sourceText: string, newText: string, items: readonly AppliedDocumentItem[]): CopiedRun[] {
  const runs: CopiedRun[] = [];
  for (const item of items) {
    if (item.kind === 'document') {
      if (sourceText === newText && newText.length > 0) runs.push({ at: 0, length: newText.length, src: 0 });
      continue;
    }
    const from = findSection(sourceText, item.heading);
    const to = findSection(newText, item.heading);
    if (!from || !to) continue;
    const body = sourceText.slice(from.start, from.end).replace(/\s+$/, '');
    if (body.length === 0 || newText.slice(to.start, to.start + body.length) !== body) continue;
    runs.push({ at: to.start, length: body.length, src: from.start });
  }
  runs.sort((a, b) => a.at - b.at);
  const out: CopiedRun[] = [];
  for (const run of runs) {
    const last = out[out.length - 1];
    if (last && run.at < last.at + last.length) continue;
    out.push(run);
  }
  return out;
}

/**
 * The apply's document patch (`oldText` → `newText`) and its attribution: the diff of the two texts
 * with every copied run turned into an insert, and for each copied run the source's spans over it
 * (offsets into the patch's inserted text, concatenated). Text the apply wrote around the runs (a
 * blank line between sections) gets no entry: it is the apply's own.
 */
export function applyDocumentChange(
  oldText: string,
  newText: string,
  runs: readonly CopiedRun[],
  sourceSpans: readonly AuthorshipSpan[],
  sourceThreadId: string,
): { patch: DocPatch; attribution: Attribution } {
  const patch = insertWhole(oldText, newText, runs);
  const attribution: Attribution = [];
  const emit = (insertedAt: number, srcStart: number, length: number) => {
    let pos = srcStart;
    const stop = srcStart + length;
    for (let i = spanIndexAt(sourceSpans, pos); i < sourceSpans.length && pos < stop; i++) {
      const span = sourceSpans[i] as AuthorshipSpan;
      if (span.end <= pos) continue;
      const end = Math.min(span.end, stop);
      const start = insertedAt + (pos - srcStart);
      const entry = {
        start,
        end: start + (end - pos),
        author: span.author,
        turn: span.turn,
        seq: span.seq,
        thread_id: span.thread_id ?? sourceThreadId,
        ...(span.user_id ? { user_id: span.user_id } : {}),
      };
      const last = attribution[attribution.length - 1];
      if (
        last &&
        last.end === entry.start &&
        last.author === entry.author &&
        last.turn === entry.turn &&
        last.seq === entry.seq &&
        last.thread_id === entry.thread_id &&
        last.user_id === entry.user_id
      ) {
        last.end = entry.end;
      } else attribution.push(entry);
      pos = end;
    }
  };
  let newPos = 0;
  let inserted = 0;
  for (const op of patch) {
    if ('r' in op) newPos += op.r;
    else if ('i' in op) {
      const end = newPos + op.i.length;
      for (const run of runs) {
        const s = Math.max(run.at, newPos);
        const e = Math.min(run.at + run.length, end);
        if (s < e) emit(inserted + (s - newPos), run.src + (s - run.at), e - s);
      }
      newPos = end;
      inserted += op.i.length;
    }
  }
  return { patch, attribution };
}

/**
 * The patch from `oldText` to `newText` in which each run is one insert and nothing else the apply did
 * not bring is rewritten: the old text is diffed against the new text without its runs, and the runs
 * are inserted where they stand. (A plain diff would align a copied section with a similar one already
 * there and re-insert that one as the apply's own text.)
 */
function insertWhole(oldText: string, newText: string, runs: readonly CopiedRun[]): DocPatch {
  if (runs.length === 0) return makeDocPatch(oldText, newText);
  let stripped = '';
  const at: number[] = [];
  let pos = 0;
  for (const run of runs) {
    stripped += newText.slice(pos, run.at);
    at.push(stripped.length);
    pos = run.at + run.length;
  }
  stripped += newText.slice(pos);
  const out: DocPatch = [];
  let next = 0;
  let strippedPos = 0;
  const insertRunsAt = (position: number) => {
    while (next < runs.length && at[next] === position) {
      const run = runs[next] as CopiedRun;
      push(out, { i: newText.slice(run.at, run.at + run.length) });
      next++;
    }
  };
  /** Emits `n` units of a retain or an insert of the stripped text, with the runs that stand inside them. */
  const advance = (n: number, emit: (from: number, to: number) => void) => {
    let left = n;
    while (left > 0) {
      insertRunsAt(strippedPos);
      const stop = next < runs.length ? Math.min(left, (at[next] as number) - strippedPos) : left;
      const take = stop > 0 ? stop : left;
      emit(strippedPos, strippedPos + take);
      strippedPos += take;
      left -= take;
    }
  };
  let oldPos = 0;
  for (const op of makeDocPatch(oldText, stripped)) {
    if ('d' in op) {
      push(out, { d: op.d });
      oldPos += op.d;
    } else if ('r' in op) {
      advance(op.r, (from, to) => push(out, { r: to - from }));
      oldPos += op.r;
    } else advance(op.i.length, (from, to) => push(out, { i: stripped.slice(from, to) }));
  }
  // makeDocPatch leaves out a trailing retain: the rest of the old text is kept.
  if (oldPos < oldText.length) advance(oldText.length - oldPos, (from, to) => push(out, { r: to - from }));
  insertRunsAt(strippedPos);
  const last = out[out.length - 1];
  if (last && 'r' in last) out.pop();
  return normalize(out);
}

function push(ops: DocPatch, op: DocPatchOp): void {
  if (('r' in op && op.r === 0) || ('d' in op && op.d === 0) || ('i' in op && op.i === '')) return;
  const last = ops[ops.length - 1];
  if (last && 'r' in last && 'r' in op) last.r += op.r;
  else if (last && 'd' in last && 'd' in op) last.d += op.d;
  else if (last && 'i' in last && 'i' in op) last.i += op.i;
  else ops.push({ ...op });
}

/** Each run of edits between two retains as one delete, then one insert. */
function normalize(patch: DocPatch): DocPatch {
  const out: DocPatch = [];
  let d = 0;
  let i = '';
  const flush = () => {
    push(out, { d });
    push(out, { i });
    d = 0;
    i = '';
  };
  for (const op of patch) {
    if ('r' in op) {
      flush();
      push(out, op);
    } else if ('d' in op) d += op.d;
    else i += op.i;
  }
  flush();
  return out;
}
