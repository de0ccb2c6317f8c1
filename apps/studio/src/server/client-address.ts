// The client address requests are rate limited on. `next start` cannot tell a
// route handler the socket address, so scripts/server.mjs writes it into a
// header (overwriting whatever a client sent); without that server (next dev)
// every client shares one address.
import { isTrustedProxy, parseTrustedProxies, resolveClientAddress, type SameOriginPolicy } from '@trellis/services';
import { env } from './env';

export const SOCKET_ADDRESS_HEADER = 'x-trellis-socket-address';

function socketAddress(headers: Headers): string | null {
  return env().TRELLIS_SOCKET_ADDRESS_HEADER === '1' ? headers.get(SOCKET_ADDRESS_HEADER) : null;
}

export function clientAddress(headers: Headers): string {
  const e = env();
  return resolveClientAddress({
    socketAddress: socketAddress(headers),
    forwardedFor: headers.get('x-forwarded-for'),
    trustedProxies: parseTrustedProxies(e.TRELLIS_TRUSTED_PROXIES),
  });
}

/**
 * What the CSRF check of a cookie request may believe: `X-Forwarded-Host` only from a listed proxy's
 * socket, and the origins configuration names (the public URL, `TRELLIS_TRUSTED_ORIGINS`).
 */
export function sameOriginPolicy(headers: Headers): SameOriginPolicy {
  const e = env();
  const extra = (e.TRELLIS_TRUSTED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  return {
    trustsForwardedHost: isTrustedProxy(socketAddress(headers), parseTrustedProxies(e.TRELLIS_TRUSTED_PROXIES)),
    allowedOrigins: [e.baseUrl, ...extra],
  };
}
