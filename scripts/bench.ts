// `npm run bench`: runs every benchmark one after another (they share 2 cores)
// and prints one JSON document: { results: [...] }. Each benchmark measures its
// ratios side by side within its own run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '@trellis/db';
import { freePort } from '../packages/db/src/testing/free-port.ts';

const root = path.resolve(import.meta.dirname, '..');
const BENCHES = [
  'packages/transcripts/bench/inspect.ts',
  'packages/services/bench/turns.ts',
  'packages/services/bench/branching.ts',
  'packages/services/bench/peer.ts',
  'packages/services/bench/list.ts',
  'packages/services/bench/compare.ts',
  'packages/services/bench/apply.ts',
  'packages/services/bench/curate.ts',
  'packages/services/bench/dataset.ts',
  'packages/services/bench/changes.ts',
  'packages/services/bench/authorship.ts',
  'packages/services/bench/replay.ts',
  'packages/services/bench/comments.ts',
  'packages/services/bench/share.ts',
  'packages/services/bench/live.ts',
  'packages/services/bench/collab.ts',
  'packages/services/bench/access.ts',
  'packages/services/bench/studies.ts',
  'apps/studio/bench/panel.ts',
  'apps/studio/bench/overview.ts',
  'apps/studio/bench/import.ts',
  'apps/studio/bench/no-stall.ts',
];
// `--quick`: fewer runs and races, no 10×-scale shapes, for local checks (under two minutes).
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((a) => a !== '--quick');
const quickEnv = {
  BENCH_QUICK: '1',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '8',
  BENCH_RACES: process.env.BENCH_RACES ?? '100',
};

// One PostgreSQL for the whole run (unless DATABASE_URL names one): each bench still makes a database
// of its own on it, one after another, and is spared starting a server (a fresh initdb each).
let server: RunningPostgres | undefined;
let dataRoot: string | undefined;
if (!process.env.DATABASE_URL) {
  dataRoot = await mkdtemp(path.join(tmpdir(), 'trellis-bench-'));
  server = await startEmbeddedPostgres({ dataDir: path.join(dataRoot, 'data'), port: await freePort() });
}
const env = { ...process.env, ...(quick ? quickEnv : {}), ...(server ? { DATABASE_URL: server.url } : {}) };

const results: unknown[] = [];
let failed = false;
try {
  for (const bench of BENCHES) {
    if (only.length > 0 && !only.some((o) => bench.includes(o))) continue;
    if (!existsSync(path.join(root, bench))) continue;
    const startedAt = performance.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', bench], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    process.stderr.write(`[bench] ${bench}: ${((performance.now() - startedAt) / 1000).toFixed(1)} s\n`);
    if (run.status !== 0) {
      failed = true;
      results.push({ bench, error: `exit ${run.status}` });
      continue;
    }
    const out = run.stdout.trim();
    try {
      // the whole output is the JSON, or (when the bench logs first) its last line is
      results.push(JSON.parse(out.startsWith('{') ? out : (out.split('\n').at(-1) ?? '')));
    } catch {
      failed = true;
      results.push({ bench, error: 'no JSON on the last line of stdout', stdout: run.stdout.slice(-2000) });
    }
  }
} finally {
  await server?.stop();
  if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
}
console.log(JSON.stringify({ results }, null, 2));
process.exit(failed ? 1 : 0);
