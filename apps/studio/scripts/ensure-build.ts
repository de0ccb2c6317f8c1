// Builds the studio when there is no production build or a source is newer than it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const studioDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(studioDir, '../..');
const SOURCE_DIRS = ['apps/studio/src', 'packages/domain/src', 'packages/db/src', 'packages/agent/src', 'packages/services/src', 'packages/transcripts/src'];
const SOURCE_FILES = ['apps/studio/next.config.ts', 'apps/studio/package.json', 'package-lock.json', 'apps/studio/postcss.config.mjs'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export function isBuildStale(): boolean {
  const buildId = path.join(studioDir, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((p) => newestMtime(path.join(repoRoot, p)) > built);
}

export function ensureBuild(options: { force?: boolean } = {}): void {
  if (!options.force && !isBuildStale()) return;
  console.log('[trellis] building the studio (next build)…');
  const result = spawnSync(path.join(repoRoot, 'node_modules/.bin/next'), ['build'], {
    cwd: studioDir,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
}
