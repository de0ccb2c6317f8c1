// The client address requests are rate limited on. `next start` cannot tell a
// route handler the socket address, so scripts/server.mjs writes it into a
// header (overwriting whatever a client sent); without that server (next dev)
// every client shares one address.
import { parseTrustedProxies, resolveClientAddress } from '@trellis/services';
import { env } from './env';

export const SOCKET_ADDRESS_HEADER = 'x-trellis-socket-address';

export function clientAddress(headers: Headers): string {
  const e = env();
  return resolveClientAddress({
    socketAddress: e.TRELLIS_SOCKET_ADDRESS_HEADER === '1' ? headers.get(SOCKET_ADDRESS_HEADER) : null,
    forwardedFor: headers.get('x-forwarded-for'),
    trustedProxies: parseTrustedProxies(e.TRELLIS_TRUSTED_PROXIES),
  });
}
