// Where a local installation keeps its data when nothing says otherwise. The
// studio's env.ts and the migrate CLI both resolve their defaults from here, so
// `npm start` and `npm run db:migrate` always meet the same embedded database.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const EMBEDDED_PG_DEFAULT_PORT = 54329;

/** The monorepo root: the nearest folder above `from` holding turbo.json (else `from`). */
export function findRepoRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'turbo.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from);
  }
}

/** `TRELLIS_DATA_DIR`, else `.data` in the repository root (never relative to the working directory). */
export function resolveDataDir(configured: string | undefined, from: string): string {
  const root = findRepoRoot(from);
  return configured ? path.resolve(root, configured) : path.join(root, '.data');
}
