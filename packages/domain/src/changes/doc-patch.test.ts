import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDocPatch, makeDocPatch } from './doc-patch';

describe('document patches', () => {
  it('turns the old text into the new one for any pair of texts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(applyDocPatch(a, makeDocPatch(a, b))).toBe(b);
      }),
      { numRuns: 500 },
    );
  });

  it('stores a one-sentence edit of a 100 KB document in a few bytes', () => {
    const body = Array.from({ length: 1_500 }, (_, i) => `Sentence ${i} says something about the review.`).join(' ');
    const edited = body.replace('Sentence 700 says something', 'Sentence 700 now says something else');
    const patch = makeDocPatch(body, edited);
    expect(applyDocPatch(body, patch)).toBe(edited);
    expect(JSON.stringify(patch).length).toBeLessThan(200);
  });

  it('keeps two distant edits apart instead of replacing everything between them', () => {
    const body = `${'a'.repeat(500)} first ${'b'.repeat(500)} second ${'c'.repeat(500)}`;
    const edited = body.replace('first', 'FIRST').replace('second', 'SECOND');
    const patch = makeDocPatch(body, edited);
    const inserted = patch.flatMap((op) => ('i' in op ? [op.i] : []));
    expect(inserted.join('')).toBe('FIRSTSECOND');
  });

  it('refuses a patch that does not fit the text', () => {
    expect(() => applyDocPatch('abc', [{ r: 5 }])).toThrow(RangeError);
  });
});

describe('reverting a document patch', () => {
  it('gives the old text back from the new text and the deleted texts', async () => {
    const { deletedTexts, revertDocPatch } = await import('./doc-patch');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const patch = makeDocPatch(a, b);
        expect(revertDocPatch(b, patch, deletedTexts(a, patch))).toBe(a);
      }),
      { numRuns: 500 },
    );
  });
});
