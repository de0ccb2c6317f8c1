// Span arithmetic: carrying spans through a patch, painting a range, merging neighbours.
import type { DocPatch } from '../changes/doc-patch';
import type { AuthorshipSpan } from './types';

export function sameOrigin(a: AuthorshipSpan, b: AuthorshipSpan): boolean {
  return (
    a.author === b.author &&
    a.turn === b.turn &&
    a.seq === b.seq &&
    a.via === b.via &&
    a.source === b.source &&
    a.thread_id === b.thread_id &&
    a.user_id === b.user_id
  );
}

/** Appends `span`, merged into the last one when they touch and share an origin; drops empty spans. */
export function pushSpan(out: AuthorshipSpan[], span: AuthorshipSpan): void {
  if (span.end <= span.start) return;
  const last = out[out.length - 1];
  if (last && last.end === span.start && sameOrigin(last, span)) last.end = span.end;
  else out.push({ ...span });
}

/** Where an edit of a patch landed: inserted text in the new text, or removed text's old range and new point. */
export type PatchMark =
  | { kind: 'insert'; start: number; end: number }
  | { kind: 'delete'; oldStart: number; oldEnd: number; at: number };

/**
 * The spans of the patched text: kept text keeps its spans (shifted), removed text loses them, and
 * each insert takes the spans `inserted(offset, text, at)` gives it (`offset`: where the insert starts
 * in the patch's inserted text, concatenated; `at`: where it lands in the new text).
 */
export function carrySpans(
  spans: readonly AuthorshipSpan[],
  oldLength: number,
  patch: DocPatch,
  inserted: (offset: number, text: string, at: number) => AuthorshipSpan[],
): { spans: AuthorshipSpan[]; marks: PatchMark[] } {
  const out: AuthorshipSpan[] = [];
  const marks: PatchMark[] = [];
  let index = 0;
  let oldPos = 0;
  let newPos = 0;
  let insertedOffset = 0;
  const take = (n: number, keep: boolean): void => {
    const stop = oldPos + n;
    while (oldPos < stop) {
      const span = spans[index];
      if (!span) throw new RangeError('authorship spans do not cover the text the patch applies to');
      const pieceEnd = Math.min(span.end, stop);
      if (keep) {
        pushSpan(out, { ...span, start: newPos, end: newPos + (pieceEnd - oldPos) });
        newPos += pieceEnd - oldPos;
      }
      oldPos = pieceEnd;
      if (pieceEnd === span.end) index++;
    }
  };
  for (const op of patch) {
    if ('r' in op) take(op.r, true);
    else if ('d' in op) {
      marks.push({ kind: 'delete', oldStart: oldPos, oldEnd: oldPos + op.d, at: newPos });
      take(op.d, false);
    } else {
      for (const span of inserted(insertedOffset, op.i, newPos)) pushSpan(out, span);
      marks.push({ kind: 'insert', start: newPos, end: newPos + op.i.length });
      insertedOffset += op.i.length;
      newPos += op.i.length;
    }
  }
  if (oldPos > oldLength) throw new RangeError('patch reaches past the end of the text');
  take(oldLength - oldPos, true);
  return { spans: out, marks };
}

/** Index of the span holding offset `pos` (the last span when `pos` is the end). */
export function spanIndexAt(spans: readonly AuthorshipSpan[], pos: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as AuthorshipSpan).end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The spans overlapping `[start, end)`. */
export function spansIn(spans: readonly AuthorshipSpan[], start: number, end: number): AuthorshipSpan[] {
  const found: AuthorshipSpan[] = [];
  for (let i = spanIndexAt(spans, start); i < spans.length; i++) {
    const span = spans[i] as AuthorshipSpan;
    if (span.start >= end) break;
    if (span.end > start) found.push(span);
  }
  return found;
}

/** Replaces the origin of `[start, end)` with `origin`, in place; neighbours of equal origin merge. */
export function paintSpans(
  spans: AuthorshipSpan[],
  start: number,
  end: number,
  origin: Omit<AuthorshipSpan, 'start' | 'end'>,
): void {
  if (end <= start || spans.length === 0) return;
  const first = spanIndexAt(spans, start);
  let last = spanIndexAt(spans, end - 1);
  const firstSpan = spans[first] as AuthorshipSpan;
  const lastSpan = spans[last] as AuthorshipSpan;
  const replacement: AuthorshipSpan[] = [];
  pushSpan(replacement, { ...firstSpan, end: start });
  pushSpan(replacement, { ...origin, start, end });
  pushSpan(replacement, { ...lastSpan, start: end });
  let from = first;
  const before = spans[first - 1];
  if (before && sameOrigin(before, replacement[0] as AuthorshipSpan)) {
    (replacement[0] as AuthorshipSpan).start = before.start;
    from--;
  }
  const after = spans[last + 1];
  const tail = replacement[replacement.length - 1] as AuthorshipSpan;
  if (after && sameOrigin(after, tail)) {
    tail.end = after.end;
    last++;
  }
  spans.splice(from, last - from + 1, ...replacement);
}

const IN_WORD = /[\p{L}\p{M}\p{N}'’\-.\uD800-\uDFFF]/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** How far back a word is looked for from a span boundary (longer runs of letters are not prose). */
const WORD_LOOKBACK = 256;

/**
 * The word (as `wordStarts` counts words) that holds both the unit before `at` and the unit at `at`,
 * or null when `at` lies between words.
 */
function wordAcross(text: string, at: number, word: RegExp): { start: number; end: number } | null {
  if (at <= 0 || at >= text.length) return null;
  const before = text[at - 1] as string;
  const after = text[at] as string;
  if (!IN_WORD.test(before) || !IN_WORD.test(after) || CJK_CHAR.test(before) || CJK_CHAR.test(after)) return null;
  let from = at - 1;
  while (from > 0 && at - from < WORD_LOOKBACK && IN_WORD.test(text[from - 1] as string)) from--;
  word.lastIndex = from;
  for (let match = word.exec(text); match !== null && match.index < at; match = word.exec(text)) {
    if (match.index + match[0].length > at) return { start: match.index, end: match.index + match[0].length };
  }
  return null;
}

/**
 * The spans with no boundary inside a word: a word belongs wholly to the origin of its first
 * character (the one the word counts credit), so a hover, a colour and a count never split it.
 * `word` is the word pattern (global, Unicode) that `wordStarts` uses. With `near` (ranges of the
 * text an edit touched), only boundaries within a word's reach of them are looked at: elsewhere the
 * spans were aligned before the edit and still are.
 */
export function alignSpansToWords(
  text: string,
  spans: AuthorshipSpan[],
  word: RegExp,
  near?: ReadonlyArray<{ start: number; end: number }>,
): AuthorshipSpan[] {
  const isNear = (at: number) =>
    near === undefined || near.some((r) => at >= r.start - WORD_LOOKBACK && at <= r.end + WORD_LOOKBACK);
  let needed = false;
  for (const range of near ?? [{ start: 0, end: text.length }]) {
    for (let i = Math.max(1, spanIndexAt(spans, Math.max(0, range.start - WORD_LOOKBACK))); i < spans.length; i++) {
      const span = spans[i] as AuthorshipSpan;
      if (span.start > range.end + WORD_LOOKBACK) break;
      if (!sameOrigin(spans[i - 1] as AuthorshipSpan, span) && wordAcross(text, span.start, word)) {
        needed = true;
        break;
      }
    }
    if (needed) break;
  }
  if (!needed) return spans;
  const out: AuthorshipSpan[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    const next = { ...span };
    if (last) {
      if (next.start < last.end) next.start = last.end;
      if (next.end <= next.start) continue;
      if (!sameOrigin(last, next) && isNear(next.start)) {
        const inside = wordAcross(text, next.start, word);
        if (inside) {
          last.end = inside.end;
          next.start = inside.end;
          if (next.end <= next.start) continue;
        }
      }
    }
    pushSpan(out, next);
  }
  return out;
}
