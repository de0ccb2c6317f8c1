import { describe, expect, it } from 'vitest';
import { readCookie } from './authenticate';

describe('readCookie', () => {
  it('answers the named cookie as sent', () => {
    const headers = new Headers({ cookie: 'a=1; trellis_x=abc_DEF-123; b=2' });
    expect(readCookie(headers, 'trellis_x')).toBe('abc_DEF-123');
    expect(readCookie(headers, 'missing')).toBeUndefined();
  });

  it('does not throw on a malformed percent-encoding (it matches no session instead)', () => {
    const headers = new Headers({ cookie: 'trellis_x=%E0%A4%A' });
    expect(readCookie(headers, 'trellis_x')).toBe('%E0%A4%A');
  });
});
