// The studio's HTTP server: the production Next.js request handler behind one
// thin layer. `next start` gives a route handler no way to learn the socket
// address (it only passes on a client-sent X-Forwarded-For), so this server
// writes the socket address into a header of its own, overwriting any value a
// client sent; src/server/client-address.ts reads it. Plain JavaScript so it
// runs with `node` alone.
import { createServer } from 'node:http';
import path from 'node:path';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
// Like `next start`: the production build always runs as production.
process.env.NODE_ENV = 'production';
process.env.TRELLIS_SOCKET_ADDRESS_HEADER = '1';

const { default: next } = await import('next');
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, '..'), hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();

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

const server = createServer((req, res) => {
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
});
server.listen(port, host, () => console.log(`[trellis] studio listening on http://${host}:${port}`));
