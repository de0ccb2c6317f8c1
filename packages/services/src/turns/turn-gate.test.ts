import { describe, expect, it } from 'vitest';
import { isAppError } from '@trellis/domain';
import { SHUTDOWN_REASON, TurnGate, TurnInterruption } from './turn-gate';

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
