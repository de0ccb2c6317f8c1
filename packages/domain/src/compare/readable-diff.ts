// The document diff a person reads: lines first, then words inside the lines that
// changed. A character diff over a whole document pairs up stray letters of unrelated sentences and
// shows an unchanged sentence as removed and added again; a line diff keeps unchanged lines whole,
// and words inside a changed pair of lines mark only what changed.
import { diffLines, diffWordsWithSpace } from 'diff';

/** A changed range: `[fromA, toA)` of the old text became `[fromB, toB)` of the new one. */
export interface DiffRange {
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

/**
 * The text as compared and shown: CRLF and CR line endings become LF, and trailing spaces and tabs
 * go, so a line that differs only in those reads as unchanged.
 */
export function normalizeForDiff(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '');
}

/** The ranges that changed between two (normalized) texts, in order, none empty on both sides. */
export function readableDiff(a: string, b: string): DiffRange[] {
  const ranges: DiffRange[] = [];
  let posA = 0;
  let posB = 0;
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed === '' && added === '') return;
    if (removed !== '' && added !== '') wordRanges(removed, added, posA, posB, ranges);
    else push(ranges, { fromA: posA, toA: posA + removed.length, fromB: posB, toB: posB + added.length });
    posA += removed.length;
    posB += added.length;
    removed = '';
    added = '';
  };
  for (const part of diffLines(a, b)) {
    if (part.removed) removed += part.value;
    else if (part.added) added += part.value;
    else {
      flush();
      posA += part.value.length;
      posB += part.value.length;
    }
  }
  flush();
  return ranges;
}

function wordRanges(removed: string, added: string, baseA: number, baseB: number, out: DiffRange[]): void {
  let a = baseA;
  let b = baseB;
  let open: DiffRange | null = null;
  for (const part of diffWordsWithSpace(removed, added)) {
    if (part.removed) {
      open ??= { fromA: a, toA: a, fromB: b, toB: b };
      a += part.value.length;
      open.toA = a;
    } else if (part.added) {
      open ??= { fromA: a, toA: a, fromB: b, toB: b };
      b += part.value.length;
      open.toB = b;
    } else {
      if (open) push(out, open);
      open = null;
      a += part.value.length;
      b += part.value.length;
    }
  }
  if (open) push(out, open);
}

function push(out: DiffRange[], range: DiffRange): void {
  const last = out[out.length - 1];
  if (last && last.toA === range.fromA && last.toB === range.fromB) {
    last.toA = range.toA;
    last.toB = range.toB;
  } else out.push(range);
}
