import { describe, expect, it } from 'vitest';
import { isTrustedProxy, parseTrustedProxies, resolveClientAddress } from './client-address';
import { parseAuthBody } from './handle-auth-request';

describe('resolveClientAddress', () => {
  const trustedProxies = ['10.0.0.1', '10.0.0.2'];

  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(resolveClientAddress({ socketAddress: '192.0.2.5', forwardedFor: '203.0.113.9', trustedProxies: [] })).toBe('192.0.2.5');
  });

  it('ignores X-Forwarded-For from a socket that is not a trusted proxy', () => {
    expect(resolveClientAddress({ socketAddress: '192.0.2.5', forwardedFor: '203.0.113.9', trustedProxies })).toBe('192.0.2.5');
  });

  it('takes the right-most hop that is not a trusted proxy', () => {
    const forwardedFor = '198.51.100.1, 203.0.113.9, 10.0.0.2';
    expect(resolveClientAddress({ socketAddress: '10.0.0.1', forwardedFor, trustedProxies })).toBe('203.0.113.9');
  });

  it('keeps the socket when the chain is all proxies, or a hop is not an address', () => {
    expect(resolveClientAddress({ socketAddress: '10.0.0.1', forwardedFor: '10.0.0.2', trustedProxies })).toBe('10.0.0.1');
    expect(resolveClientAddress({ socketAddress: '10.0.0.1', forwardedFor: 'evil, garbage', trustedProxies })).toBe('10.0.0.1');
  });

  it('spells IPv4-mapped IPv6 as IPv4, and an unknown socket as unknown', () => {
    expect(resolveClientAddress({ socketAddress: '::ffff:127.0.0.1', forwardedFor: null, trustedProxies: [] })).toBe('127.0.0.1');
    expect(resolveClientAddress({ socketAddress: undefined, forwardedFor: '203.0.113.9', trustedProxies: [] })).toBe('unknown');
    expect(resolveClientAddress({ socketAddress: '::ffff:10.0.0.1', forwardedFor: '2001:DB8::1', trustedProxies })).toBe('2001:db8::1');
  });

  it('parses TRELLIS_TRUSTED_PROXIES', () => {
    expect(parseTrustedProxies(' 10.0.0.1, ,10.0.0.2 ')).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });
});

describe('parseAuthBody', () => {
  const json = 'application/json';

  it('answers 400 for a body that is not a JSON object', () => {
    for (const text of ['null', '[]', '3', '"s"', '{bad']) {
      expect(() => parseAuthBody(text, json), text).toThrow(expect.objectContaining({ code: 'bad_request' }));
    }
  });

  it('answers 422 naming the field for text Postgres cannot store', () => {
    expect(() => parseAuthBody(JSON.stringify({ name: 'a\u0000' }), json)).toThrow('name contains a NUL character');
    expect(() => parseAuthBody('{"email":"\\ud800"}', json)).toThrow('email contains an unpaired surrogate');
  });

  it('passes an object or an empty body through, and refuses other media types (415)', () => {
    expect(parseAuthBody('{"email":"a@b.c"}', json)).toEqual({ email: 'a@b.c' });
    expect(parseAuthBody('', json)).toBeNull();
    expect(() => parseAuthBody('email=a', 'application/x-www-form-urlencoded')).toThrow(expect.objectContaining({ code: 'unsupported_media_type' }));
  });
});

describe('isTrustedProxy', () => {
  it('is true only for a listed socket address, in any spelling', () => {
    expect(isTrustedProxy('::ffff:10.0.0.1', ['10.0.0.1'])).toBe(true);
    expect(isTrustedProxy('10.0.0.2', ['10.0.0.1'])).toBe(false);
    expect(isTrustedProxy('10.0.0.1', [])).toBe(false);
    expect(isTrustedProxy(null, ['10.0.0.1'])).toBe(false);
  });
});
