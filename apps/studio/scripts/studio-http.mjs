// The HTTP server in front of Next's request handler: the socket address header,
// the refusals Next gets wrong (malformed paths, echoing slash redirects), and
// the bounds on slow clients. Plain JavaScript so scripts/server.mjs runs with
// `node` alone; the tests drive it with a handler of their own.
import { createServer } from 'node:http';

/**
 * Slow-client bounds (seconds), from the environment:
 * - `TRELLIS_HEADERS_TIMEOUT_SECONDS` (20): a request's headers must arrive within this. A browser
 *   sends them in one packet; 20 s leaves room for a congested mobile link.
 * - `TRELLIS_REQUEST_TIMEOUT_SECONDS` (120): the whole request, body included. The largest body is a
 *   20 MB transcript upload: 120 s lets it through a 1.4 Mbit/s uplink (a slow ADSL or 3G line),
 *   while a client that dribbles a body a byte at a time loses its socket after two minutes
 *   instead of holding it indefinitely.
 * Node checks both only every `connectionsCheckingInterval` (30 s by default, which let a header
 * dribbler live 68–75 s): it is set to a tenth of the headers timeout, at most 1 s.
 */
export function slowClientTimeouts(environment) {
  const seconds = (name, fallback) => {
    const raw = environment[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds, not ${raw}`);
    return value;
  };
  const headersTimeoutMs = Math.round(seconds('TRELLIS_HEADERS_TIMEOUT_SECONDS', 20) * 1000);
  const requestTimeoutMs = Math.round(seconds('TRELLIS_REQUEST_TIMEOUT_SECONDS', 120) * 1000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error('TRELLIS_HEADERS_TIMEOUT_SECONDS must not exceed TRELLIS_REQUEST_TIMEOUT_SECONDS');
  }
  return { headersTimeoutMs, requestTimeoutMs };
}

/** Next answers a path it cannot percent-decode (`%F0%9F`, an encoded lone surrogate) with a 500. */
function hasMalformedPath(url) {
  try {
    decodeURIComponent((url ?? '/').split('?')[0]);
    return false;
  } catch {
    return true;
  }
}

/** The longest Location this server answers: no response header grows with what a client sent. */
const MAX_REDIRECT_LOCATION = 2048;

/**
 * Next answers a path with repeated slashes, backslashes or a trailing slash with a 308 that echoes
 * the whole URL, query included, into both Location and Refresh: a long query made a response whose
 * headers no client reads. Here the same redirect keeps the query only while Location stays short;
 * past that it is a 414. Null when the path needs no redirect.
 */
function slashRedirect(url) {
  const raw = url ?? '/';
  const queryAt = raw.indexOf('?');
  const pathname = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const query = queryAt === -1 ? '' : raw.slice(queryAt);
  const collapsed = pathname.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  const normalized = collapsed.length > 1 ? collapsed.replace(/\/+$/, '') : collapsed;
  if (normalized === pathname) return null;
  const location = `${normalized}${query}`;
  return location.length <= MAX_REDIRECT_LOCATION ? { status: 308, location } : { status: 414, location: null };
}

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function answerError(res, status, code, message) {
  res.writeHead(status, JSON_HEADERS);
  res.end(JSON.stringify({ error: { code, message } }));
}

/**
 * The studio's server around `handle` (Next's request handler). The socket address goes into a
 * header of its own, overwriting whatever a client sent (src/server/client-address.ts reads it).
 */
export function createStudioServer(handle, { headersTimeoutMs, requestTimeoutMs }) {
  const server = createServer(
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, Math.max(50, headersTimeoutMs / 10)) },
    (req, res) => {
      if (hasMalformedPath(req.url)) {
        answerError(res, 400, 'bad_request', 'The request path is not valid percent-encoded UTF-8');
        return;
      }
      const redirect = slashRedirect(req.url);
      if (redirect?.status === 414) {
        answerError(res, 414, 'bad_request', 'The URL is too long to redirect: send it without repeated or trailing slashes');
        return;
      }
      if (redirect !== null) {
        res.writeHead(308, { location: redirect.location, 'cache-control': 'no-store' });
        res.end();
        return;
      }
      req.headers['x-trellis-socket-address'] = req.socket.remoteAddress ?? '';
      void handle(req, res);
    },
  );
  return server;
}
