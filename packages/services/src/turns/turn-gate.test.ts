import { describe, expect, it, vi } from 'vitest';
import { isAppError } from '@trellis/domain';
import { isTurnInterruption, SHUTDOWN_REASON, TurnGate, TurnInterruption } from './turn-gate';

describe('the drain', () => {
  it('refuses new work with unavailable and a retry hint once it starts', async () => {
    const gate = new TurnGate();
    gate.admit('your message');
    const drained = gate.drain(0);
    let refusal: unknown;
    try {
      gate.admit('your message');
    } catch (error) {
      refusal = error;
    }
    expect(isAppError(refusal) && refusal.code).toBe('unavailable');
    expect(isAppError(refusal) && refusal.details).toEqual({ retry_after_seconds: 5 });
    await expect(gate.run('the branch', () => Promise.resolve(1))).rejects.toMatchObject({ code: 'unavailable' });
    await drained;
  });

  it('lets work that finishes within the grace finish, and interrupts the turns that do not, with the shutdown reason', async () => {
    const gate = new TurnGate();
    const quick = gate.run('the branch', () => Promise.resolve('made'));
    let reason: unknown;
    let endTurn!: () => void;
    const turn = new Promise<void>((resolve) => (endTurn = resolve));
    gate.track(turn, (r) => {
      reason = r;
      endTurn();
    });
    expect(gate.inFlight).toBe(2);
    const report = await gate.drain(20);
    expect(await quick).toBe('made');
    expect(reason).toBeInstanceOf(TurnInterruption);
    expect((reason as Error).message).toBe(SHUTDOWN_REASON);
    expect(report).toEqual({ finished: 1, aborted: 1 });
    expect(gate.inFlight).toBe(0);
  });
});

describe('isTurnInterruption', () => {
  it('recognizes an interruption made by another copy of the module (the drain in a separately bundled start-up)', async () => {
    vi.resetModules();
    const copy = await import('./turn-gate');
    expect(copy.TurnInterruption).not.toBe(TurnInterruption);
    const interruption = new copy.TurnInterruption(SHUTDOWN_REASON);
    expect(interruption instanceof TurnInterruption).toBe(false);
    expect(isTurnInterruption(interruption)).toBe(true);
    expect(copy.isTurnInterruption(new TurnInterruption('lease lost'))).toBe(true);
  });

  it('is false for other errors, look-alikes and other values', () => {
    expect(isTurnInterruption(new Error('plain'))).toBe(false);
    expect(isTurnInterruption(Object.assign(new Error('named'), { name: 'TurnInterruption' }))).toBe(false);
    expect(isTurnInterruption('the server stopped during this reply')).toBe(false);
  });
});
