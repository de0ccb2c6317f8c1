import { describe, expect, it } from 'vitest';
import { pieceEnd } from './piece-end';

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at = pieceEnd(text, at, size)) out.push(text.slice(at, pieceEnd(text, at, size)));
  return out;
}

describe('pieceEnd', () => {
  it('cuts every `size` units, the last piece shorter', () => {
    expect(pieces('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });

  it('never ends a piece inside a surrogate pair, at any size, and the pieces join to the text', () => {
    const text = `a${'😀'.repeat(20)}b`;
    for (const size of [1, 2, 3, 5, 64]) {
      const cut = pieces(text, size);
      expect(cut.join('')).toBe(text);
      // at most `size` units (a pair is whole, so a size of 1 takes 2 where a pair starts)
      for (const piece of cut) expect(piece.length).toBeLessThanOrEqual(Math.max(size, 2));
      if (size >= 2) for (const piece of cut) expect(piece.length).toBeLessThanOrEqual(size);
      for (const piece of cut) expect(piece).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });
});
