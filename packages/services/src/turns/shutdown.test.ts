// A stop signal ends the process within its grace period, even when the drain never finishes (a
// request stuck on a lock, a database that does not stop): the process exits when the period is over.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drainBudget, installShutdownHandlers } from './shutdown';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

afterEach(() => {
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  vi.useRealTimers();
});

describe('installShutdownHandlers', () => {
  it('exits at the end of the grace period when the drain is stuck', async () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    let drainedWith = -1;
    installShutdownHandlers({
      graceMs: 10_000,
      drain: (grace) => {
        drainedWith = grace;
        return new Promise(() => undefined);
      },
      logger: silent,
      exit,
    });
    process.emit('SIGTERM', 'SIGTERM');
    expect(drainedWith).toBe(8_000);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledWith(143);
  });

  it('exits as soon as a drain that finishes is done, once', async () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    installShutdownHandlers({ graceMs: 10_000, drain: async () => null, logger: silent, exit });
    process.emit('SIGTERM', 'SIGTERM');
    await vi.advanceTimersByTimeAsync(0);
    expect(exit).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('leaves the drain all but a reserve of the grace period', () => {
    expect(drainBudget(30_000)).toBe(28_000);
    expect(drainBudget(4_000)).toBe(3_000);
    expect(drainBudget(0)).toBe(0);
  });
});
