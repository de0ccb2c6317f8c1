// A passage comment's anchor follows the text it covers through the path's later document changes,
// carried by the change log's patches (never found again by searching for its quote). Offsets are
// UTF-16 code units, like the patches and the authorship spans.
import type { DocPatch } from '../changes/doc-patch';

/** Where a passage stands in the current text (`start < end`). */
export interface AnchorRange {
  start: number;
  end: number;
}

/** One replacement of a patch in old-text offsets: `[from, to)` dropped, `inserted` units put there. */
interface Replacement {
  from: number;
  to: number;
  inserted: number;
}

function replacementsOf(patch: DocPatch): Replacement[] {
  const out: Replacement[] = [];
  let at = 0;
  let open: Replacement | null = null;
  for (const op of patch) {
    if ('r' in op) {
      if (op.r === 0) continue;
      if (open) out.push(open);
      open = null;
      at += op.r;
    } else {
      open ??= { from: at, to: at, inserted: 0 };
      if ('d' in op) {
        open.to += op.d;
        at += op.d;
      } else {
        open.inserted += op.i.length;
      }
    }
  }
  if (open) out.push(open);
  return out;
}

/**
 * A position between units after the patch. `side` says which neighbour it keeps when text is put
 * exactly there or the text around it is replaced: `1` the text after it (a passage's start),
 * `-1` the text before it (a passage's end).
 */
function mapPosition(pos: number, changes: readonly Replacement[], side: 1 | -1): number {
  let delta = 0;
  for (const c of changes) {
    if (c.to === pos && c.from < pos && side === -1) {
      // A replacement ending exactly at an end: what it puts there is at the edge, outside.
      return c.from + delta;
    }
    if (c.to < pos || (c.to === pos && c.from < pos)) {
      // Entirely before (a replacement ending exactly at a start leaves its insertion before it).
      delta += c.inserted - (c.to - c.from);
      continue;
    }
    if (c.from > pos) break;
    // c.from <= pos < c.to, or a pure insertion at pos.
    if (c.from === c.to) {
      if (side === 1) delta += c.inserted;
      continue;
    }
    return c.from + delta + (side === 1 ? c.inserted : 0);
  }
  return pos + delta;
}

/**
 * The passage after one patch: text put strictly inside it widens it, text put at either edge stays
 * outside, deletions shrink it; `null` once every unit it covered (and any put inside it since) is
 * gone — the comment is then orphaned.
 */
export function transformAnchor(range: AnchorRange, patch: DocPatch): AnchorRange | null {
  const changes = replacementsOf(patch);
  if (changes.length === 0) return range;
  const start = mapPosition(range.start, changes, 1);
  const end = mapPosition(range.end, changes, -1);
  return end > start ? { start, end } : null;
}

/** The passage through patches in order; `null` (orphaned) stays null. */
export function transformAnchorThrough(range: AnchorRange | null, patches: readonly DocPatch[]): AnchorRange | null {
  let current = range;
  for (const patch of patches) {
    if (current === null) return null;
    current = transformAnchor(current, patch);
  }
  return current;
}
