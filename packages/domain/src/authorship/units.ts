// The units that `agent_edited` covers whole: when a person changes text inside a
// unit the agent wrote, the whole unit becomes `agent_edited`. A unit is found from its own line only,
// so re-segmenting around an edit costs the edited lines, never the document.
//
// Segmentation, per line (a line ends at `\n` or `\r`; CRLF is one break, and breaks belong to no unit):
// - a heading (`#` … `######` then a space or the end) is one unit, the whole line;
// - a list item (`-`, `*`, `+`, `1.` or `1)` then a space or the end, after any indentation) is one unit;
// - a table row (a line whose first non-blank character is `|`) has one unit per cell: the cell's text
//   between unescaped pipes, trimmed; the pipes belong to no unit;
// - any other line is split into sentences: a sentence ends after a run of `.` `!` `?` `…` (and any
//   closing quotes or brackets) followed by whitespace or the end of the line, or right after `。` `！` `？`.
// A unit is its trimmed core: leading and trailing whitespace belong to no unit, so typing a space
// between two sentences edits neither.

export type UnitKind = 'sentence' | 'heading' | 'list_item' | 'table_cell';

export interface TextUnit {
  start: number;
  end: number;
  kind: UnitKind;
}

const HEADING = /^#{1,6}(?:[ \t]|$)/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const TERMINATORS = new Set(['.', '!', '?', '…']);
const CJK_TERMINATORS = new Set(['。', '！', '？']);
const CLOSERS = new Set(['"', "'", ')', ']', '’', '”', '»', '*', '_']);

export function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

/** The `[start, end)` of the line holding offset `pos` (a break at `pos` ends the line before it). */
export function lineAt(text: string, pos: number): { start: number; end: number } {
  let start = Math.min(pos, text.length);
  while (start > 0 && !isLineBreak(text.charCodeAt(start - 1))) start--;
  let end = Math.min(pos, text.length);
  while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
  return { start, end };
}

/** The units of the line `[lineStart, lineEnd)` (no break inside), in order. */
export function unitsOfLine(text: string, lineStart: number, lineEnd: number): TextUnit[] {
  let first = lineStart;
  while (first < lineEnd && isSpace(text[first])) first++;
  let last = lineEnd;
  while (last > first && isSpace(text[last - 1])) last--;
  if (first >= last) return [];
  const body = text.slice(first, last);
  if (HEADING.test(body)) return [{ start: first, end: last, kind: 'heading' }];
  if (LIST_ITEM.test(body)) return [{ start: first, end: last, kind: 'list_item' }];
  if (body.startsWith('|')) return tableCells(text, first, last);
  return sentences(text, first, last);
}

function tableCells(text: string, first: number, last: number): TextUnit[] {
  const units: TextUnit[] = [];
  let cellStart = first + 1;
  for (let i = first + 1; i <= last; i++) {
    const isPipe = i < last && text[i] === '|' && text[i - 1] !== '\\';
    if (i < last && !isPipe) continue;
    let s = cellStart;
    let e = i;
    while (s < e && isSpace(text[s])) s++;
    while (e > s && isSpace(text[e - 1])) e--;
    if (s < e) units.push({ start: s, end: e, kind: 'table_cell' });
    cellStart = i + 1;
  }
  return units;
}

function sentences(text: string, first: number, last: number): TextUnit[] {
  const units: TextUnit[] = [];
  let start = first;
  let i = first;
  while (i < last) {
    const ch = text[i] as string;
    if (CJK_TERMINATORS.has(ch)) {
      let end = i + 1;
      while (end < last && (CJK_TERMINATORS.has(text[end] as string) || CLOSERS.has(text[end] as string))) end++;
      units.push({ start, end, kind: 'sentence' });
      i = end;
    } else if (TERMINATORS.has(ch)) {
      let end = i + 1;
      while (end < last && (TERMINATORS.has(text[end] as string) || CLOSERS.has(text[end] as string))) end++;
      if (end < last && !isSpace(text[end])) {
        i = end;
        continue;
      }
      units.push({ start, end, kind: 'sentence' });
      i = end;
    } else {
      i++;
      continue;
    }
    while (i < last && isSpace(text[i])) i++;
    start = i;
  }
  if (start < last) units.push({ start, end: last, kind: 'sentence' });
  return units;
}

/** Every unit of the document, in order (for rendering and reports; edits use `unitsOfLine`). */
export function segmentUnits(text: string): TextUnit[] {
  const units: TextUnit[] = [];
  let lineStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || isLineBreak(text.charCodeAt(i))) {
      units.push(...unitsOfLine(text, lineStart, i));
      lineStart = i + 1;
    }
  }
  return units;
}

/** The units of every line that `[start, end)` touches (a zero-width range: its one line). */
export function unitsAround(text: string, start: number, end: number): TextUnit[] {
  const units: TextUnit[] = [];
  let { start: lineStart } = lineAt(text, start);
  const stop = Math.max(start, end);
  for (;;) {
    let lineEnd = lineStart;
    while (lineEnd < text.length && !isLineBreak(text.charCodeAt(lineEnd))) lineEnd++;
    units.push(...unitsOfLine(text, lineStart, lineEnd));
    if (lineEnd >= stop || lineEnd >= text.length) break;
    lineStart = lineEnd + 1;
  }
  return units;
}

/** The unit whose core holds the character at `pos`, if any. */
export function unitAt(text: string, pos: number): TextUnit | undefined {
  if (pos < 0 || pos >= text.length) return undefined;
  const line = lineAt(text, pos);
  return unitsOfLine(text, line.start, line.end).find((u) => u.start <= pos && pos < u.end);
}
