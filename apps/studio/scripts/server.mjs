// The studio's HTTP server: the production Next.js request handler behind one
// thin layer (./studio-http.mjs). `next start` gives a route handler no way to
// learn the socket address (it only passes on a client-sent X-Forwarded-For),
// and cannot bound slow clients; that layer does both. Plain JavaScript so it
// runs with `node` alone.
import path from 'node:path';
import { createStudioServer, slowClientTimeouts } from './studio-http.mjs';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
// Like `next start`: the production build always runs as production.
process.env.NODE_ENV = 'production';
process.env.TRELLIS_SOCKET_ADDRESS_HEADER = '1';
// Read before Next starts: a bad value stops the process at once.
const timeouts = slowClientTimeouts(process.env);

const { default: next } = await import('next');
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, '..'), hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createStudioServer(handle, timeouts);
server.listen(port, host, () => console.log(`[trellis] studio listening on http://${host}:${port}`));
