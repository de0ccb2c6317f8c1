// Once per run, before any worker starts: the studio's production build (built only when a
// source is newer than it) and one PostgreSQL for every worker's database. Workers inherit
// DATABASE_URL from here; each makes a database of its own on it (see test.ts).
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@trellis/db';
import { freePort } from '@trellis/db/testing';
import { ensureBuild } from '../../scripts/ensure-build.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureBuild();
  // A server the developer named (DATABASE_URL) is used as it is.
  if (process.env.DATABASE_URL) return async () => undefined;
  const dataDir = path.join(tmpdir(), `trellis-e2e-pg-${randomBytes(5).toString('hex')}`);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: await freePort() });
  process.env.DATABASE_URL = pg.url;
  return async () => {
    await pg.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
