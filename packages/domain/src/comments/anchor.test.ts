import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDocPatch, makeDocPatch, type DocPatch } from '../changes/doc-patch';
import { transformAnchor, transformAnchorThrough, type AnchorRange } from './anchor';

/**
 * The reference: every unit of the text carries whether it belongs to the passage. A patch keeps
 * retained units' marks, drops deleted ones, and marks an inserted unit only when the units on both
 * sides of where it lands (the kept unit before, the next old unit after) belong to the passage —
 * "strictly inside". The passage is the marked run; none left means orphaned.
 */
function referenceTransform(length: number, range: AnchorRange | null, patch: DocPatch): { marks: boolean[]; range: AnchorRange | null } {
  const marks = Array.from({ length }, (_, i) => range !== null && i >= range.start && i < range.end);
  const out: boolean[] = [];
  let at = 0;
  for (const op of patch) {
    if ('r' in op) {
      out.push(...marks.slice(at, at + op.r));
      at += op.r;
    } else if ('d' in op) {
      at += op.d;
    } else {
      const before = out.length > 0 && out[out.length - 1] === true;
      // The next old unit that is not deleted by this patch's following ops is what "after" means;
      // with merged replacements, that is the unit where the next retain starts.
      const after = marks[nextKept(patch, op, at)] === true;
      out.push(...Array.from({ length: op.i.length }, () => before && after));
    }
  }
  out.push(...marks.slice(at));
  const first = out.indexOf(true);
  const last = out.lastIndexOf(true);
  return { marks: out, range: first === -1 ? null : { start: first, end: last + 1 } };
}

/** The old offset where the text resumes after the replacement that `op` is part of. */
function nextKept(patch: DocPatch, op: DocPatch[number], at: number): number {
  let index = patch.indexOf(op) + 1;
  let pos = at;
  while (index < patch.length && !('r' in patch[index]!)) {
    const next = patch[index]!;
    if ('d' in next) pos += next.d;
    index++;
  }
  return pos;
}

const word = fc.stringMatching(/^[a-z ]{0,6}$/);

describe('a passage anchor through document changes', () => {
  it('text inserted inside widens it, at its edges stays outside', () => {
    // "hello world": the passage is "world" [6, 11).
    expect(transformAnchor({ start: 6, end: 11 }, [{ r: 8 }, { i: 'XX' }])).toEqual({ start: 6, end: 13 });
    expect(transformAnchor({ start: 6, end: 11 }, [{ r: 6 }, { i: 'big ' }])).toEqual({ start: 10, end: 15 });
    expect(transformAnchor({ start: 6, end: 11 }, [{ r: 11 }, { i: '!' }])).toEqual({ start: 6, end: 11 });
  });

  it('deletions shrink it, and deleting every unit orphans it', () => {
    expect(transformAnchor({ start: 6, end: 11 }, [{ r: 4 }, { d: 4 }])).toEqual({ start: 4, end: 7 });
    expect(transformAnchor({ start: 6, end: 11 }, [{ r: 5 }, { d: 6 }])).toBeNull();
    expect(transformAnchor({ start: 6, end: 11 }, [{ r: 6 }, { d: 5 }, { i: 'there' }])).toBeNull();
    expect(transformAnchorThrough({ start: 6, end: 11 }, [[{ d: 6 }], [{ r: 5 }, { i: '!' }]])).toEqual({ start: 0, end: 5 });
  });

  it('follows the reference through 200 random edits around, inside and across it', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 2, maxLength: 60 }),
        fc.nat(),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), word), { minLength: 1, maxLength: 200 }),
        (initial, a, b, edits) => {
          const start = a % (initial.length - 1);
          const end = start + 1 + (b % (initial.length - start));
          let text = initial;
          let range: AnchorRange | null = { start, end: Math.min(end, initial.length) };
          let reference: AnchorRange | null = range;
          for (const [at, remove, insert] of edits) {
            const from = text.length === 0 ? 0 : at % (text.length + 1);
            const to = Math.min(text.length, from + remove);
            const next = text.slice(0, from) + insert + text.slice(to);
            const patch = makeDocPatch(text, next);
            expect(applyDocPatch(text, patch)).toBe(next);
            reference = referenceTransform(text.length, reference, patch).range;
            range = range === null ? null : transformAnchor(range, patch);
            expect(range).toEqual(reference);
            text = next;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
