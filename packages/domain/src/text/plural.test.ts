import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('adds the s to every count but one, and groups thousands', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(0, 'record')).toBe('0 records');
    expect(plural(12_345, 'word')).toBe('12,345 words');
  });
});
