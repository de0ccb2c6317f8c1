import { isIP } from 'node:net';

/**
 * The address a request is rate limited on. The socket address is the only one a
 * client cannot choose; `X-Forwarded-For` is believed only when the socket belongs
 * to a trusted proxy, and then only up to the right-most hop that is not itself a
 * trusted proxy (everything left of it was written by the client).
 */
export function resolveClientAddress(input: {
  socketAddress: string | null | undefined;
  forwardedFor: string | null | undefined;
  trustedProxies: readonly string[];
}): string {
  const socket = normalizeAddress(input.socketAddress ?? '');
  if (!socket) return 'unknown';
  const trusted = new Set(input.trustedProxies.map(normalizeAddress).filter((a): a is string => a !== null));
  if (!trusted.has(socket) || !input.forwardedFor) return socket;
  const hops = input.forwardedFor.split(',').map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]!);
    if (!hop) return socket;
    if (!trusted.has(hop)) return hop;
  }
  return socket;
}

/** Whether the socket is one of the listed proxies, whose forwarded headers may be believed. */
export function isTrustedProxy(socketAddress: string | null | undefined, trustedProxies: readonly string[]): boolean {
  const socket = normalizeAddress(socketAddress ?? '');
  return socket !== null && trustedProxies.some((proxy) => normalizeAddress(proxy) === socket);
}

/** Parses `TRELLIS_TRUSTED_PROXIES` (comma-separated addresses). */
export function parseTrustedProxies(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A valid IPv4/IPv6 address in one spelling (IPv4-mapped IPv6 becomes IPv4), else null. */
export function normalizeAddress(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  if (isIP(value) === 0) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  return mapped ? mapped[1]! : value;
}
