// What an apply writes into `DocumentBodyAfter.attribution` (issue 23: "applied text keeps its original
// author"): for each inserted run of the apply's patch, the authors of the same text at the source step.
import type { DocumentBodyAfter } from '../changes/change';
import { makeDocPatch, type DocPatch } from '../changes/doc-patch';
import { spanIndexAt } from './spans';
import type { AuthorshipSpan } from './types';

type Attribution = NonNullable<DocumentBodyAfter['attribution']>;

/** Runs shorter than this are not looked up by themselves in the source (one letter is everywhere). */
const MIN_LOOKUP = 12;

/**
 * Attribution for the patch that turns `oldText` into `newText`, taking authors from the source
 * document (`sourceText` and its `sourceSpans`, on thread `sourceThreadId`): an inserted run found
 * verbatim in the source takes the source's spans there; other inserted text is matched through a
 * diff of the source against the new text. Text that is in neither gets no entry (the apply's own).
 */
export function applyAttribution(
  sourceText: string,
  sourceSpans: readonly AuthorshipSpan[],
  sourceThreadId: string,
  oldText: string,
  newText: string,
  patch: DocPatch = makeDocPatch(oldText, newText),
): Attribution {
  const out: Attribution = [];
  let common: Array<{ at: number; end: number; src: number }> | null = null;
  const alignment = () => (common ??= commonRuns(sourceText, newText));
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
      const last = out[out.length - 1];
      if (last && last.end === entry.start && last.author === entry.author && last.turn === entry.turn && last.seq === entry.seq && last.thread_id === entry.thread_id && last.user_id === entry.user_id) {
        last.end = entry.end;
      } else out.push(entry);
      pos = end;
    }
  };
  let newPos = 0;
  let inserted = 0;
  for (const op of patch) {
    if ('r' in op) newPos += op.r;
    else if ('i' in op) {
      const found = op.i.length >= MIN_LOOKUP ? sourceText.indexOf(op.i) : -1;
      if (found >= 0) emit(inserted, found, op.i.length);
      else {
        for (const run of alignment()) {
          const s = Math.max(run.at, newPos);
          const e = Math.min(run.end, newPos + op.i.length);
          if (s < e) emit(inserted + (s - newPos), run.src + (s - run.at), e - s);
        }
      }
      newPos += op.i.length;
      inserted += op.i.length;
    }
  }
  return out;
}

/** Runs of `newText` kept from `sourceText` by their diff: `[at, end)` in the new text, `src` in the source. */
function commonRuns(sourceText: string, newText: string): Array<{ at: number; end: number; src: number }> {
  const runs: Array<{ at: number; end: number; src: number }> = [];
  let src = 0;
  let at = 0;
  for (const op of makeDocPatch(sourceText, newText)) {
    if ('r' in op) {
      runs.push({ at, end: at + op.r, src });
      at += op.r;
      src += op.r;
    } else if ('d' in op) src += op.d;
    else at += op.i.length;
  }
  if (src < sourceText.length && at < newText.length) {
    const n = Math.min(sourceText.length - src, newText.length - at);
    runs.push({ at, end: at + n, src });
  }
  return runs;
}
