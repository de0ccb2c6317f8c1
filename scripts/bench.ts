// `npm run bench`: runs every benchmark one after another (they share 2 cores)
// and prints one JSON document: { results: [...] }. Each benchmark measures its
// ratios side by side within its own run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

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
  'apps/studio/bench/panel.ts',
  'apps/studio/bench/import.ts',
];
// `--quick`: fewer runs and no 10×-scale shapes, for local checks (under two minutes).
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((a) => a !== '--quick');
const env = quick ? { ...process.env, BENCH_QUICK: '1', BENCH_RUNS: process.env.BENCH_RUNS ?? '8' } : process.env;

const results: unknown[] = [];
let failed = false;
for (const bench of BENCHES) {
  if (only.length > 0 && !only.some((o) => bench.includes(o))) continue;
  if (!existsSync(path.join(root, bench))) continue;
  process.stderr.write(`[bench] ${bench}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
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
console.log(JSON.stringify({ results }, null, 2));
process.exit(failed ? 1 : 0);
