// Drives turn-worker.child.ts from a test or the soak: spawn, send commands,
// wait for events, kill.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export type WorkerEvent = { ev: string; id?: string } & Record<string, unknown>;

export interface Worker {
  readonly child: ChildProcessWithoutNullStreams;
  readonly events: WorkerEvent[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  send(command: Record<string, unknown>): string;
  /** The first event (past or future) matching `match`. */
  waitFor(match: (e: WorkerEvent) => boolean, timeoutMs?: number): Promise<WorkerEvent>;
  /** Sends a command and waits for its `result` or `refused`. */
  call(command: Record<string, unknown>, timeoutMs?: number): Promise<WorkerEvent>;
}

let counter = 0;

export function spawnWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'turn-worker.child.ts')], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: WorkerEvent[] = [];
  const waiters = new Set<{ match: (e: WorkerEvent) => boolean; resolve: (e: WorkerEvent) => void }>();
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event: WorkerEvent;
    try {
      event = JSON.parse(line) as WorkerEvent;
    } catch {
      return;
    }
    events.push(event);
    for (const waiter of waiters) {
      if (waiter.match(event)) {
        waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (match: (e: WorkerEvent) => boolean, timeoutMs = 60_000) => {
    const seen = events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<WorkerEvent>((resolve, reject) => {
      const waiter = { match, resolve: (e: WorkerEvent) => (clearTimeout(timer), resolve(e)) };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`worker: no matching event within ${timeoutMs} ms; stderr: ${stderr.join('').slice(-2000)}`));
      }, timeoutMs);
      waiters.add(waiter);
      void exited.then(() => {
        if (!waiters.has(waiter)) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(new Error(`worker exited; stderr: ${stderr.join('').slice(-2000)}`));
      });
    });
  };
  const send = (command: Record<string, unknown>) => {
    const id = `c${++counter}`;
    child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    return id;
  };
  return {
    child,
    events,
    exited,
    send,
    waitFor,
    call: (command, timeoutMs) => {
      const id = send(command);
      return waitFor((e) => e.id === id && (e.ev === 'result' || e.ev === 'refused'), timeoutMs);
    },
  };
}
