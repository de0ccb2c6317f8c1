import { describe, expect, it } from 'vitest';
import { utf8Slices } from './export-markdown';

const joined = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

describe('utf8Slices', () => {
  it('gives the text as UTF-8 in slices of at most the size, and the slices join to the whole', () => {
    const text = 'Évidence — 証拠 '.repeat(500);
    const parts = [...utf8Slices([text], 64)];
    expect(parts.length).toBeGreaterThan(10);
    expect(joined(parts).toString('utf8')).toBe(text);
    expect(joined(parts)).toEqual(Buffer.from(text, 'utf8'));
  });

  it('never splits a surrogate pair across two slices (no replacement characters)', () => {
    // 'a' then emoji: every slice boundary at an odd size falls inside a pair unless it is moved.
    const text = `a${'😀'.repeat(200)}`;
    for (const size of [1, 2, 3, 5, 64]) {
      const bytes = joined([...utf8Slices([text], size)]);
      expect(bytes.toString('utf8')).toBe(text);
      expect(bytes.includes(Buffer.from('\uFFFD', 'utf8'))).toBe(false);
    }
  });

  it('gives the parts joined, each cut into slices of at most the size', () => {
    const big = 'Évidence — 証拠 😀 '.repeat(400);
    const parts = ['# Title\n', '\n', big, '#', '## ', big.slice(3), '\n'];
    const slices = [...utf8Slices(parts, 256)];
    expect(joined(slices)).toEqual(Buffer.from(parts.join(''), 'utf8'));
    expect(joined(slices).includes(Buffer.from('\uFFFD', 'utf8'))).toBe(false);
    for (const slice of slices) expect(Buffer.from(slice).toString('utf8').length).toBeLessThanOrEqual(256);
  });

  it('gives nothing for an empty text', () => {
    expect([...utf8Slices([], 64)]).toEqual([]);
    expect([...utf8Slices(['', ''], 64)]).toEqual([]);
  });
});
