// `npm start`: build when needed, then serve the studio on HOST:PORT (default
// 127.0.0.1:3000). The studio starts the embedded PostgreSQL (unless DATABASE_URL)
// and migrates at boot. SIGINT/SIGTERM are passed on: the studio drains the turns
// in flight, then stops its database; a second signal stops it at once. The
// studio runs in a process group of its own, so a terminal's Ctrl+C reaches it
// only through here, once. The npm script `exec`s node: npm
// runs it through `sh -c` and passes a SIGTERM only to that shell, which would die
// of it and leave this process and the studio running without a signal.
import { ensureBuild } from '../apps/studio/scripts/ensure-build.ts';
import { serve } from '../apps/studio/scripts/serve.ts';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);

ensureBuild();
const child = serve({ host, port, ownProcessGroup: true });
console.log(`[trellis] studio starting on http://${host}:${port}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => child.kill(signal));
}
// The studio runs in a process group of its own (serve.ts), so a closed terminal reaches it only through here.
process.on('SIGHUP', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 143)));
