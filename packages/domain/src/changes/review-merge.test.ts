import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reviewMerge, settleReview } from './review-merge';

const settle = settleReview;

const BASE = ['# Aims', 'First aim.', '', '# Methods', 'We ask people.', '', '# Results', 'None yet.', ''].join('\n');

describe('the review of an overlapping save', () => {
  it('keeps the agent’s sentence the person did not touch, under every choice on the person’s hunk', () => {
    // The agent rewrote the aims and the methods; the person edited the methods meanwhile.
    const theirs = BASE.replace('First aim.', 'First aim, rewritten.').replace('We ask people.', 'We interview twelve people.');
    const mine = BASE.replace('We ask people.', 'We ask people in pairs.');
    const review = reviewMerge(BASE, mine, theirs);
    expect(review.hunks.map((h) => h.side)).toEqual(['theirs', 'both']);
    for (const choice of [true, false]) {
      const saved = settle(review, [true, choice]);
      expect(saved).toContain('First aim, rewritten.');
      expect(saved).toContain(choice ? 'We ask people in pairs.' : 'We interview twelve people.');
    }
    // Rejecting the agent's hunk is the person's choice, and gives back the base, not their own copy's text.
    expect(settle(review, [false, true])).toContain('First aim.\n');
  });

  it('keeps both sides’ edits of different sections whichever hunk is accepted or rejected', () => {
    const theirs = BASE.replace('First aim.', 'First aim, sharpened.');
    const mine = BASE.replace('None yet.', 'Two findings.');
    const review = reviewMerge(BASE, mine, theirs);
    expect(review.hunks.map((h) => h.side)).toEqual(['theirs', 'mine']);
    expect(settle(review, [true, true])).toBe(BASE.replace('First aim.', 'First aim, sharpened.').replace('None yet.', 'Two findings.'));
    expect(settle(review, [true, false])).toContain('First aim, sharpened.');
    expect(settle(review, [false, true])).toContain('Two findings.');
  });

  it('shows a change both sides made alike as no hunk', () => {
    const same = BASE.replace('None yet.', 'One finding.');
    const review = reviewMerge(BASE, same, same);
    expect(review.hunks).toEqual([]);
    expect(review.merged).toBe(same);
  });

  it('falls back to a two-way view, every hunk labelled as both, past its budget', () => {
    const theirs = BASE.replace('First aim.', 'Another aim.');
    const mine = BASE.replace('First aim.', 'A third aim.').replace('None yet.', 'Some.');
    const review = reviewMerge(BASE, mine, theirs, { maxLineEdits: 0, timeoutMs: 1_000 });
    expect(review.original).toBe(theirs);
    expect(review.merged).toBe(mine);
    expect(review.hunks.length).toBe(2);
    expect(review.hunks.every((h) => h.side === 'both')).toBe(true);
  });

  it('(property) accepting every hunk keeps each side’s paragraph edits (the person’s where both edited one); rejecting every one gives the original', () => {
    // Edits of paragraphs that are not next to each other: adjacent edits of the two sides are one
    // region to diff3, shown as one hunk of side `both`.
    const edits = fc.array(fc.constantFrom<'mine' | 'theirs' | 'both' | undefined>('mine', 'theirs', 'both', undefined, undefined), { minLength: 1, maxLength: 14 });
    fc.assert(
      fc.property(edits, (plan) => {
        const lines = plan.map((_, i) => `paragraph ${i}`);
        const sideOf = (i: number) => plan[i];
        fc.pre(plan.every((e, i) => e === undefined || (sideOf(i + 1) === undefined && sideOf(i - 1) === undefined)));
        const mineLines = lines.map((line, i) => (plan[i] === 'mine' || plan[i] === 'both' ? `${line}, mine` : line));
        const theirsLines = lines.map((line, i) => (plan[i] === 'theirs' || plan[i] === 'both' ? `${line}, theirs` : line));
        const review = reviewMerge(lines.join('\n'), mineLines.join('\n'), theirsLines.join('\n'));
        expect(review.hunks.map((h) => h.side)).toEqual(plan.filter((e) => e !== undefined));
        expect(settle(review, review.hunks.map(() => false))).toBe(review.original);
        const all = settle(review, review.hunks.map(() => true)).split('\n');
        expect(all).toEqual(lines.map((line, i) => (plan[i] === undefined ? line : plan[i] === 'theirs' ? theirsLines[i] : mineLines[i])));
        // Rejecting the other side's hunks gives back the base; rejecting a conflict gives theirs.
        const none = settle(review, review.hunks.map(() => false)).split('\n');
        expect(none).toEqual(lines.map((line, i) => (plan[i] === 'both' ? theirsLines[i] : line)));
      }),
      { numRuns: 300 },
    );
  });
});
