// Start-up of one studio process: resolve the database (embedded unless
// DATABASE_URL) and the auth secret, apply migrations and the checkpointer
// schema, and on SIGINT/SIGTERM drain the turns in flight before the embedded
// Postgres stops (a second signal stops at once). The context starts the
// sweeper and the studio instance from what boot returns.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '@trellis/db';
import { installShutdownHandlers, migrateAll, type DrainReport } from '@trellis/services';
import { env } from './env';
import { logger } from './logger';

export interface Booted {
  databaseUrl: string;
  authSecret: string;
  /** This process owns its database (the embedded one): no other studio process shares it. */
  isEmbedded: boolean;
}

type Drain = (graceMs: number) => Promise<DrainReport | null>;

// One boot per process: Next bundles instrumentation and route handlers apart.
const globalBoot = globalThis as typeof globalThis & { __trellisBoot?: Promise<Booted>; __trellisDrain?: Drain };

/** Resolves once the database is migrated and usable, to what start-up resolved. Nothing is written to the environment. */
export function boot(): Promise<Booted> {
  globalBoot.__trellisBoot ??= start();
  return globalBoot.__trellisBoot;
}

/** What a stopping process drains before the database stops (the context registers it; boot never imports it). */
export function setDrain(drain: Drain): void {
  globalBoot.__trellisDrain = drain;
}

async function start(): Promise<Booted> {
  const e = env();
  await mkdir(e.dataDir, { recursive: true });
  const authSecret = e.BETTER_AUTH_SECRET ?? (await localSecret(e.dataDir));
  let databaseUrl = e.DATABASE_URL;
  let postgres: RunningPostgres | undefined;
  if (!databaseUrl) {
    postgres = await startEmbeddedPostgres({ dataDir: path.join(e.dataDir, 'postgres'), port: e.TRELLIS_PG_PORT });
    databaseUrl = postgres.url;
    logger.info({ port: e.TRELLIS_PG_PORT }, 'embedded PostgreSQL started');
  }
  registerShutdown(e.TRELLIS_SHUTDOWN_GRACE_SECONDS * 1000, postgres);
  await migrateAll({ databaseUrl });
  return { databaseUrl, authSecret, isEmbedded: postgres !== undefined };
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
    drain: async (grace) => (globalBoot.__trellisDrain ? globalBoot.__trellisDrain(grace) : null),
    ...(postgres ? { stopDatabase: () => postgres.stop() } : {}),
  });
  // Any other exit still asks the postmaster for a fast shutdown (it finishes on its own).
  if (postgres) process.once('exit', () => postgres.signalShutdown());
}
