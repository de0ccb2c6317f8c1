// Start-up of one studio process: resolve the database (embedded unless
// DATABASE_URL), apply migrations and the checkpointer schema, start the pending
// branch sweeper, and stop the embedded Postgres on the way out.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '@trellis/db';
import { migrateAll } from '@trellis/services';
import { env } from './env';
import { logger } from './logger';

interface BootState {
  ready: Promise<void>;
  postgres?: RunningPostgres;
}

const globalBoot = globalThis as typeof globalThis & { __trellisBoot?: BootState };

export function boot(): Promise<void> {
  globalBoot.__trellisBoot ??= { ready: start() };
  return globalBoot.__trellisBoot.ready;
}

/** Resolves once the database is usable; route handlers await it. */
export function whenBooted(): Promise<void> {
  return boot();
}

async function start(): Promise<void> {
  const e = env();
  await mkdir(e.dataDir, { recursive: true });
  if (!process.env.BETTER_AUTH_SECRET) process.env.BETTER_AUTH_SECRET = await localSecret(e.dataDir);
  if (!process.env.DATABASE_URL) {
    const postgres = await startEmbeddedPostgres({ dataDir: path.join(e.dataDir, 'postgres'), port: e.TRELLIS_PG_PORT });
    globalBoot.__trellisBoot!.postgres = postgres;
    process.env.DATABASE_URL = postgres.url;
    registerShutdown(postgres);
    logger.info({ port: e.TRELLIS_PG_PORT }, 'embedded PostgreSQL started');
  }
  await migrateAll({ databaseUrl: process.env.DATABASE_URL });
  const { startSweeper } = await import('./context');
  startSweeper();
}

/** A per-installation secret kept beside the data, so sessions survive restarts. */
async function localSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'auth-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(32).toString('hex');
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}

function registerShutdown(postgres: RunningPostgres): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping embedded PostgreSQL');
    postgres
      .stop()
      .catch((error: unknown) => logger.error({ err: error }, 'embedded PostgreSQL did not stop cleanly'))
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  // start.ts sets NEXT_MANUAL_SIG_HANDLE so these handlers, not Next's, end the process.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Any other exit still asks the postmaster for a fast shutdown (it finishes on its own).
  process.once('exit', () => postgres.signalShutdown());
}
