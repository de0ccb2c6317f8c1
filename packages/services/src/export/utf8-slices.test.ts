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

  it('gives the parts joined, a large part cut and small ones gathered into slices of about the size', () => {
    const big = 'Évidence — 証拠 😀 '.repeat(400);
    const parts = ['# Title\n', '\n', big, '#', '## ', big.slice(3), '\n', ...Array.from({ length: 300 }, (_, i) => `line ${i}\n`)];
    const text = parts.join('');
    const slices = [...utf8Slices(parts, 256)];
    expect(joined(slices)).toEqual(Buffer.from(text, 'utf8'));
    expect(joined(slices).includes(Buffer.from('\uFFFD', 'utf8'))).toBe(false);
    // Every slice but the last holds the size in characters (one more when a pair would be split).
    const lengths = slices.map((s) => Buffer.from(s).toString('utf8').length);
    for (const length of lengths.slice(0, -1)) expect([256, 257]).toContain(length);
    expect(lengths.at(-1)).toBeLessThanOrEqual(257);
  });

  it('gives nothing for an empty text', () => {
    expect([...utf8Slices([], 64)]).toEqual([]);
    expect([...utf8Slices(['', ''], 64)]).toEqual([]);
  });
});
