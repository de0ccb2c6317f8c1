import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './json-depth';

describe('exceedsJsonDepth', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(exceedsJsonDepth('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":[1,{"b":[2]}]}', 3)).toBe(true);
    expect(exceedsJsonDepth(JSON.stringify({ text: '[[[[[[[[[[{{{{{{\\"' }), 2)).toBe(false);
  });

  it('refuses 100,000 nested arrays without recursing', () => {
    expect(exceedsJsonDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(true);
  });
});
