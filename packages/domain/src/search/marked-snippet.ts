/**
 * A search snippet arrives from PostgreSQL's `ts_headline` with each matched word between two
 * control characters; the API answers plain text plus the matched ranges, so a client marks them
 * (`<mark>`) without parsing anything or trusting the text as HTML.
 */

/** Opens a matched word in `ts_headline`'s output (STX). */
export const MATCH_START = '\u0002';
/** Closes a matched word (ETX). */
export const MATCH_END = '\u0003';

export interface MarkedSnippet {
  /** Plain text: whitespace collapsed, at most `maxChars` (an ellipsis where it was cut). */
  text: string;
  /** `[start, end)` UTF-16 offsets into `text` of the matched words, in order, not overlapping. */
  highlights: [number, number][];
}

/** Reads `ts_headline` output with `MATCH_START`/`MATCH_END` around matches into text and ranges. */
export function readMarkedSnippet(raw: string, maxChars: number): MarkedSnippet {
  let text = '';
  const highlights: [number, number][] = [];
  let openAt: number | null = null;
  let pendingSpace = false;
  for (const ch of raw.trim()) {
    if (ch === MATCH_START) {
      if (pendingSpace && text !== '') text += ' ';
      pendingSpace = false;
      openAt = text.length;
      continue;
    }
    if (ch === MATCH_END) {
      if (openAt !== null && text.length > openAt) highlights.push([openAt, text.length]);
      openAt = null;
      continue;
    }
    if (/\s/.test(ch)) {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace && text !== '') text += ' ';
    pendingSpace = false;
    text += ch;
  }
  if (text.length <= maxChars) return { text, highlights };
  const cut = maxChars - 1;
  return {
    text: `${text.slice(0, cut)}…`,
    highlights: highlights.filter(([start]) => start < cut).map(([start, end]) => [start, Math.min(end, cut)] as [number, number]),
  };
}

/** The snippet split into plain and matched parts, in order, for rendering. */
export function snippetParts(text: string, highlights: readonly [number, number][]): { text: string; isMatch: boolean }[] {
  const parts: { text: string; isMatch: boolean }[] = [];
  let at = 0;
  for (const [start, end] of highlights) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) parts.push({ text: text.slice(at, start), isMatch: false });
    parts.push({ text: text.slice(start, end), isMatch: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), isMatch: false });
  return parts;
}
