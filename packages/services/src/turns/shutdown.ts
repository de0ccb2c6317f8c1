// The order a stopping studio process follows: on the first SIGINT/SIGTERM, drain — refuse new work, let turns
// finish for the grace period, interrupt the rest — then stop the database the
// process owns, then exit. A second signal exits at once. Two deliveries closer
// than `repeatWindowMs` count as one: a terminal's Ctrl+C reaches both `npm
// start` (which passes it on) and the server.
import type { Logger } from '../deps';
import type { DrainReport } from './turn-gate';

export interface ShutdownOptions {
  graceMs: number;
  drain(graceMs: number): Promise<DrainReport | null>;
  /** Stops the database this process owns (the embedded one), after the drain. */
  stopDatabase?: () => Promise<void>;
  logger: Logger;
  exit?: (code: number) => void;
  repeatWindowMs?: number;
}

export function installShutdownHandlers(options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const window = options.repeatWindowMs ?? 500;
  let firstAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    const now = Date.now();
    if (firstAt !== undefined) {
      if (now - firstAt < window) return;
      options.logger.warn({ signal }, 'second signal: stopping at once');
      exit(code);
      return;
    }
    firstAt = now;
    options.logger.info({ signal, graceMs: options.graceMs }, 'draining: no new turns; waiting for the turns in flight');
    // The grace period is a promise to whoever sent the signal (a supervisor SIGKILLs after it): a
    // request stuck on a lock, a peer that stopped reading, a database that does not stop in time
    // must not keep the process past it. The drain gets the grace period less a reserve for
    // interrupting what still runs and stopping the database; then the process exits regardless.
    const hardStop = setTimeout(() => {
      options.logger.warn({ graceMs: options.graceMs }, 'the grace period is over: exiting with work still in flight');
      exit(code);
    }, options.graceMs);
    void drainThenStop({ ...options, graceMs: drainBudget(options.graceMs) }).finally(() => {
      clearTimeout(hardStop);
      exit(code);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** What the drain may use of the grace period: all but a reserve (a quarter, at most 2 s). */
export function drainBudget(graceMs: number): number {
  return Math.max(0, graceMs - Math.min(2_000, graceMs / 4));
}

async function drainThenStop(options: ShutdownOptions): Promise<void> {
  try {
    const report = await options.drain(options.graceMs);
    if (report) options.logger.info(report, 'drained');
  } catch (error: unknown) {
    options.logger.error({ err: error }, 'the drain failed; stopping anyway');
  }
  if (!options.stopDatabase) return;
  options.logger.info({}, 'stopping embedded PostgreSQL');
  try {
    await options.stopDatabase();
    options.logger.info({}, 'embedded PostgreSQL stopped');
  } catch (error: unknown) {
    options.logger.error({ err: error }, 'embedded PostgreSQL did not stop cleanly');
  }
}
