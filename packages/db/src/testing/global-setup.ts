// Vitest global setup for `*.int.test.ts`: a real PostgreSQL and a database of this
// run's own. DATABASE_URL names a server to use; otherwise an embedded one is
// started in a temporary folder on a free port. Parallel and repeated runs never
// share a database.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '../embedded';
import { dropDatabase, ensureDatabase, migrateDatabase } from '../migrate';
import { freePort } from './free-port';

export default async function setup(): Promise<() => Promise<void>> {
  const name = `trellis_test_${randomBytes(6).toString('hex')}`;
  let server: RunningPostgres | undefined;
  let dataRoot: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dataRoot = path.join(tmpdir(), `trellis-pg-${randomBytes(6).toString('hex')}`);
    await mkdir(dataRoot, { recursive: true, mode: 0o755 });
    server = await startEmbeddedPostgres({ dataDir: path.join(dataRoot, 'data'), port: await freePort() });
    adminUrl = server.url;
  }
  const url = await ensureDatabase(adminUrl, name);
  await migrateDatabase(url);
  process.env.TRELLIS_TEST_DATABASE_URL = url;
  process.env.TRELLIS_TEST_ADMIN_DATABASE_URL = adminUrl;

  return async () => {
    await dropDatabase(adminUrl, name).catch(() => undefined);
    await server?.stop();
    if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
  };
}
