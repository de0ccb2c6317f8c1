import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('follows a path of the studio and nothing else', () => {
    expect(safeNext('/join/abc')).toBe('/join/abc');
    expect(safeNext('//evil.example/x')).toBe('/');
    expect(safeNext('/\\evil.example')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext(['/a', '/b'])).toBe('/');
    expect(safeNext(undefined)).toBe('/');
  });
});
