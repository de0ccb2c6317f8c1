// Rendering spans over text (the authorship overlay): the five shades the overlay shows,
// and the split of a run of text (an editor's range, a rendered Markdown text node) at span boundaries.
import { spanIndexAt } from './spans';
import type { AuthorshipSpan } from './types';

/** What the overlay colours: the author, except that applied text has its own shade. */
export type OverlayKind = 'person' | 'agent' | 'agent_edited' | 'applied' | 'cited' | 'unknown';

export const OVERLAY_KINDS: readonly OverlayKind[] = ['person', 'agent', 'agent_edited', 'applied', 'cited', 'unknown'];

export const OVERLAY_LABELS: Record<OverlayKind, string> = {
  person: 'You',
  agent: 'Agent',
  agent_edited: 'Agent, edited by you',
  applied: 'Applied from another path',
  cited: 'Agent, from another path',
  unknown: 'Unknown (before the change log)',
};

export function overlayKind(span: Pick<AuthorshipSpan, 'author' | 'via'>): OverlayKind {
  if (span.via === 'apply') return 'applied';
  // Copied from a cited step and not edited since (an edit makes the unit the person's or agent_edited).
  if (span.via === 'cite' && span.author === 'agent') return 'cited';
  return span.author;
}

export interface SpanPiece {
  /** Offsets into the run (not the document). */
  start: number;
  end: number;
  span: AuthorshipSpan;
}

/**
 * The pieces of the run `[from, from + length)` of the document, one per span it crosses, in order.
 * A boundary that would split a surrogate pair of `value` (the run's text) moves past the pair, so a
 * rendered emoji is never cut in two. Parts of the run outside every span (a stale overlay) are left out.
 */
export function splitBySpans(spans: readonly AuthorshipSpan[], from: number, value: string): SpanPiece[] {
  const pieces: SpanPiece[] = [];
  if (spans.length === 0 || value.length === 0) return pieces;
  const to = from + value.length;
  let cursor = 0;
  for (let i = spanIndexAt(spans, from); i < spans.length && cursor < value.length; i++) {
    const span = spans[i] as AuthorshipSpan;
    if (span.start >= to) break;
    if (span.end <= from) continue;
    const start = Math.max(cursor, span.start - from);
    let end = Math.min(value.length, span.end - from);
    if (end < value.length && isLow(value.charCodeAt(end)) && isHigh(value.charCodeAt(end - 1))) end++;
    if (end > start) {
      const last = pieces[pieces.length - 1];
      if (last && last.end === start && last.span === span) last.end = end;
      else pieces.push({ start, end, span });
    }
    cursor = Math.max(cursor, end);
  }
  return pieces;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
