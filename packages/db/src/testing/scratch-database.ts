// A throwaway database for benchmarks and scripts: on the server DATABASE_URL
// names, or on an embedded PostgreSQL in a temporary folder. Migrated by drizzle;
// callers add the checkpointer schema if they need it.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '../embedded';
import { dropDatabase, ensureDatabase, migrateDatabase } from '../migrate';
import { freePort } from './free-port';

export interface ScratchDatabase {
  url: string;
  dispose(): Promise<void>;
}

export async function createScratchDatabase(prefix = 'trellis_scratch'): Promise<ScratchDatabase> {
  let server: RunningPostgres | undefined;
  let dataRoot: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dataRoot = path.join(tmpdir(), `${prefix}-${randomBytes(5).toString('hex')}`);
    await mkdir(dataRoot, { recursive: true, mode: 0o755 });
    server = await startEmbeddedPostgres({ dataDir: path.join(dataRoot, 'data'), port: await freePort() });
    adminUrl = server.url;
  }
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const url = await ensureDatabase(adminUrl, name);
  await migrateDatabase(url);
  const admin = adminUrl;
  return {
    url,
    dispose: async () => {
      await dropDatabase(admin, name).catch(() => undefined);
      await server?.stop();
      if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
    },
  };
}
