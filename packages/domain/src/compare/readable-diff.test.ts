import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeForDiff, readableDiff } from './readable-diff';

/** Rebuilds b from a and the ranges: a property every diff must have. */
function rebuild(a: string, b: string, ranges: ReturnType<typeof readableDiff>): string {
  let out = '';
  let at = 0;
  for (const r of ranges) {
    out += a.slice(at, r.fromA) + b.slice(r.fromB, r.toB);
    at = r.toA;
  }
  return out + a.slice(at);
}

describe('readableDiff', () => {
  it('marks only the word that changed', () => {
    const a = 'The first sentence stays.\nWe read twelve studies in all.\nThe last one stays too.\n';
    const b = 'The first sentence stays.\nWe read fifteen studies in all.\nThe last one stays too.\n';
    const ranges = readableDiff(a, b);
    expect(ranges).toHaveLength(1);
    const [r] = ranges;
    expect(a.slice(r!.fromA, r!.toA)).toBe('twelve');
    expect(b.slice(r!.fromB, r!.toB)).toBe('fifteen');
  });

  it('never shows an unchanged line as removed and added', () => {
    const a = 'Intro.\nUnchanged sentence here.\nOld ending.\n';
    const b = 'Intro, longer now.\nUnchanged sentence here.\nNew ending, rewritten.\n';
    for (const r of readableDiff(a, b)) {
      expect(a.slice(r.fromA, r.toA)).not.toContain('Unchanged');
      expect(b.slice(r.fromB, r.toB)).not.toContain('Unchanged');
    }
  });

  it('reads line endings and trailing spaces as no change once normalized', () => {
    const a = normalizeForDiff('one  \r\ntwo\r\nthree\t\n');
    const b = normalizeForDiff('one\ntwo\nthree\n');
    expect(readableDiff(a, b)).toEqual([]);
  });

  it('turns a into b for any pair of texts', () => {
    const line = fc.stringMatching(/^[a-c ]{0,8}$/);
    const text = fc.array(line, { maxLength: 8 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(rebuild(a, b, readableDiff(a, b))).toBe(b);
      }),
      { numRuns: 300 },
    );
  });
});
