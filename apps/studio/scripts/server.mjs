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

const server = createServer((req, res) => {
  if (hasMalformedPath(req.url)) {
    res.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(JSON.stringify({ error: { code: 'bad_request', message: 'The request path is not valid percent-encoded UTF-8' } }));
    return;
  }
  req.headers['x-trellis-socket-address'] = req.socket.remoteAddress ?? '';
  void handle(req, res);
});
server.listen(port, host, () => console.log(`[trellis] studio listening on http://${host}:${port}`));
