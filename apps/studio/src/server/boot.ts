// Start-up of one studio process: resolve the database (embedded unless
// DATABASE_URL), apply migrations and the checkpointer schema, start the pending
// branch sweeper and the studio instance, and on SIGINT/SIGTERM drain the turns
// in flight before the embedded Postgres stops (a second signal stops at once).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '@trellis/db';
import { installShutdownHandlers, migrateAll } from '@trellis/services';
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

/** True when this process owns its database (the embedded one): no other studio process shares it. */
export function usesEmbeddedPostgres(): boolean {
  return globalBoot.__trellisBoot?.postgres !== undefined;
}

async function start(): Promise<void> {
  const e = env();
  await mkdir(e.dataDir, { recursive: true });
  if (!process.env.BETTER_AUTH_SECRET) process.env.BETTER_AUTH_SECRET = await localSecret(e.dataDir);
  if (!process.env.DATABASE_URL) {
    const postgres = await startEmbeddedPostgres({ dataDir: path.join(e.dataDir, 'postgres'), port: e.TRELLIS_PG_PORT });
    globalBoot.__trellisBoot!.postgres = postgres;
    process.env.DATABASE_URL = postgres.url;
    logger.info({ port: e.TRELLIS_PG_PORT }, 'embedded PostgreSQL started');
  }
  registerShutdown(e.TRELLIS_SHUTDOWN_GRACE_SECONDS * 1000, globalBoot.__trellisBoot!.postgres);
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

function registerShutdown(graceMs: number, postgres: RunningPostgres | undefined): void {
  // start.ts sets NEXT_MANUAL_SIG_HANDLE (the Dockerfile too) so these handlers, not Next's, end the process.
  installShutdownHandlers({
    graceMs,
    logger,
    drain: async (grace) => (await import('./context')).drainContext(grace),
    ...(postgres ? { stopDatabase: () => postgres.stop() } : {}),
  });
  // Any other exit still asks the postmaster for a fast shutdown (it finishes on its own).
  if (postgres) process.once('exit', () => postgres.signalShutdown());
}
