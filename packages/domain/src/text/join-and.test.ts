import { describe, expect, it } from 'vitest';
import { joinAnd } from './join-and';

describe('joinAnd', () => {
  it('lists in running text, with no serial comma', () => {
    expect(joinAnd([])).toBe('');
    expect(joinAnd(['a'])).toBe('a');
    expect(joinAnd(['a', 'b'])).toBe('a and b');
    expect(joinAnd(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
