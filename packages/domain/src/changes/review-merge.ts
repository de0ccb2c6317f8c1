// The merge a person reviews when their save overlapped changes made meanwhile: a three-way view of
// the base (what their copy was loaded from), their text and the current text, cut into hunks that
// follow the changes — one per run of changed paragraphs (a paragraph is one line in this editor) —
// each labelled by who made it. The review starts from everything both sides did (the person's
// text where both changed the same paragraphs), so nothing the person did not touch is reverted
// unless they reject that hunk themselves.
import { applyHunks, diff3Regions, hunksOf, lineTokens } from './merge-document';

export type ReviewSide = 'mine' | 'theirs' | 'both';

export interface ReviewHunk {
  /** Who changed these paragraphs since the base: the person, the other side, or both (a conflict). */
  side: ReviewSide;
  /** The hunk's range in `original` (what rejecting it restores). */
  fromA: number;
  toA: number;
  /** The hunk's range in `merged` (what accepting it keeps). */
  fromB: number;
  toB: number;
}

export interface ReviewMerge {
  /**
   * What each hunk is measured against: the base where one side changed it, the current text where
   * both did. Rejecting a hunk gives back this text; accepting it keeps `merged`'s.
   */
  original: string;
  /** Both sides' changes applied; where both changed the same paragraphs, the person's text. */
  merged: string;
  hunks: ReviewHunk[];
}

export interface ReviewBudget {
  /** Most lines either side may differ from the base by. */
  maxLineEdits: number;
  timeoutMs: number;
}

const DEFAULT_REVIEW_BUDGET: ReviewBudget = { maxLineEdits: 4_000, timeoutMs: 2_000 };
/** The two-way view diffs one pair of texts: a wider edit cap, the same time. */
const TWO_WAY_BUDGET: ReviewBudget = { maxLineEdits: 20_000, timeoutMs: 2_000 };

/**
 * The review of `mine` (the person's text) and `theirs` (the current text), both edits of `base`.
 * Past the budget, the two-way view: the current text against the person's, one hunk of side
 * `both` per difference run (still labelled, never lumped as anyone's alone).
 */
export function reviewMerge(base: string, mine: string, theirs: string, budget: ReviewBudget = DEFAULT_REVIEW_BUDGET): ReviewMerge {
  return threeWay(base, mine, theirs, budget) ?? twoWay(theirs, mine);
}

/**
 * The current text against the person's: the same walk with the current text as the base, so every
 * difference is one run, each labelled `both` (whose it is is unknown without the base).
 */
function twoWay(theirs: string, mine: string): ReviewMerge {
  const review = threeWay(theirs, mine, theirs, TWO_WAY_BUDGET);
  if (review === null) return { original: theirs, merged: mine, hunks: [{ side: 'both', fromA: 0, toA: theirs.length, fromB: 0, toB: mine.length }] };
  return { ...review, hunks: review.hunks.map((hunk) => ({ ...hunk, side: 'both' })) };
}

/** diff3 by lines, or null past the budget. */
function threeWay(base: string, mine: string, theirs: string, budget: ReviewBudget): ReviewMerge | null {
  const deadline = Date.now() + budget.timeoutMs;
  const baseLines = lineTokens(base);
  const a = hunksOf(baseLines, lineTokens(mine), budget.maxLineEdits, deadline);
  const b = a && hunksOf(baseLines, lineTokens(theirs), budget.maxLineEdits, deadline);
  if (!a || !b) return null;

  let original = '';
  let merged = '';
  const hunks: ReviewHunk[] = [];
  const push = (side: ReviewSide, from: string, to: string) => {
    if (from === to) {
      original += from;
      merged += to;
      return;
    }
    const last = hunks.at(-1);
    const fromA = original.length;
    const fromB = merged.length;
    original += from;
    merged += to;
    // Runs of one side that touch are one hunk; a conflict swallows a touching one-side run.
    if (last && last.toA === fromA && last.toB === fromB && (last.side === side || side === 'both' || last.side === 'both')) {
      last.side = last.side === side ? side : 'both';
      last.toA = original.length;
      last.toB = merged.length;
    } else {
      hunks.push({ side, fromA, toA: original.length, fromB, toB: merged.length });
    }
  };

  let at = 0;
  for (const { start, end, groupA, groupB } of diff3Regions(a, b)) {
    const kept = baseLines.slice(at, start).join('');
    original += kept;
    merged += kept;
    const region = baseLines.slice(start, end).join('');
    const ra = applyHunks(baseLines, start, end, groupA).join('');
    const rb = applyHunks(baseLines, start, end, groupB).join('');
    if (groupB.length === 0) push('mine', region, ra);
    else if (groupA.length === 0) push('theirs', region, rb);
    else if (ra === rb) push('both', ra, ra);
    else push('both', rb, ra);
    at = end;
  }
  const rest = baseLines.slice(at).join('');
  return { original: original + rest, merged: merged + rest, hunks };
}

/**
 * The text a person settles on: for each hunk, in order, its merged text (accepted, the default) or
 * its original text (`false`: rejected); everything between hunks as both sides have it.
 */
export function settleReview(review: ReviewMerge, accepted: readonly (boolean | undefined)[]): string {
  let out = '';
  let at = 0;
  review.hunks.forEach((hunk, i) => {
    out += review.merged.slice(at, hunk.fromB);
    out += accepted[i] === false ? review.original.slice(hunk.fromA, hunk.toA) : review.merged.slice(hunk.fromB, hunk.toB);
    at = hunk.toB;
  });
  return out + review.merged.slice(at);
}
