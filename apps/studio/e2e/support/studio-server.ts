// Starts one studio process on a database of its own: an embedded PostgreSQL in a
// temporary folder, or a fresh database on the server DATABASE_URL names.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { dropDatabase, ensureDatabase } from '@trellis/db';
import { freePort } from '@trellis/db/testing';
import { serve, waitForHealthy } from '../../scripts/serve.ts';

export interface StudioServer {
  baseUrl: string;
  dataDir: string;
  port: number;
  pgPort: number;
  child: ChildProcess;
  env: Record<string, string>;
  /** The last lines the process wrote (stdout and stderr), for a failure message. */
  output(): string;
  /** Stops the process (SIGTERM, waiting for a clean exit). */
  stop(): Promise<void>;
  /** Removes the data folder / database. */
  dispose(): Promise<void>;
}

export async function startStudioServer(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<StudioServer> {
  const dataDir = options.dataDir ?? path.join(tmpdir(), `trellis-e2e-${randomBytes(5).toString('hex')}`);
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const port = await freePort();
  const pgPort = await freePort();
  const env: Record<string, string> = {
    TRELLIS_DATA_DIR: dataDir,
    TRELLIS_PG_PORT: String(pgPort),
    TRELLIS_PENDING_GRACE_SECONDS: '2',
    LLM_PROVIDER: 'offline',
    LOG_LEVEL: 'warn',
    TRELLIS_CHECK_RESPONSES: '1',
    ...options.env,
  };
  let databaseName: string | undefined;
  // `DATABASE_URL: ''` in `options.env` keeps the embedded database even when the run has a server.
  const adminUrl = options.env?.DATABASE_URL === '' ? undefined : process.env.DATABASE_URL;
  if (adminUrl) {
    databaseName = `trellis_e2e_${randomBytes(5).toString('hex')}`;
    env.DATABASE_URL = await ensureDatabase(adminUrl, databaseName);
  }
  return launch({ dataDir, port, pgPort, env, adminUrl, databaseName });
}

/** Starts another process on the same data (after a kill, for instance). */
export async function restartStudioServer(previous: StudioServer): Promise<StudioServer> {
  return launch({ dataDir: previous.dataDir, port: previous.port, pgPort: previous.pgPort, env: previous.env });
}

async function launch(o: {
  dataDir: string;
  port: number;
  pgPort: number;
  env: Record<string, string>;
  adminUrl?: string;
  databaseName?: string;
}): Promise<StudioServer> {
  const child = serve({ host: '127.0.0.1', port: o.port, env: o.env, stdio: 'pipe' });
  const output = keepOutput(child);
  const baseUrl = `http://127.0.0.1:${o.port}`;
  try {
    await waitForHealthy(baseUrl, 120_000, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${String(error)}\n--- studio output ---\n${output()}`);
  }
  return {
    baseUrl,
    dataDir: o.dataDir,
    port: o.port,
    pgPort: o.pgPort,
    child,
    env: o.env,
    output,
    stop: async () => {
      const exit = exited(child);
      child.kill('SIGTERM');
      await exit;
    },
    dispose: async () => {
      if (o.adminUrl && o.databaseName) await dropDatabase(o.adminUrl, o.databaseName).catch(() => undefined);
      await rm(o.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Reads a piped child's stdout and stderr as they come and keeps their last `limit` characters: a
 * pipe nobody reads fills up, and then the child's next write blocks it. Returns the kept text.
 */
export function keepOutput(child: ChildProcess, limit = 8000): () => string {
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-limit));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

/** Whether `child` has exited (with a code or on a signal). */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves with the exit code (or signal) once `child` has exited. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (hasExited(child)) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
