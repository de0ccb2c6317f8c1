import { describe, expect, it } from 'vitest';
import { forEachLimited, mapLimited } from './limited';

describe('mapLimited', () => {
  it('answers in the items’ order with at most `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, n));
      inFlight -= 1;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });
});

describe('forEachLimited', () => {
  it('starts no item after a failure and throws the first failure', async () => {
    const started: number[] = [];
    await expect(
      forEachLimited([0, 1, 2, 3], 1, (n) => {
        started.push(n);
        return n === 1 ? Promise.reject(new Error('one')) : Promise.resolve();
      }),
    ).rejects.toThrow('one');
    expect(started).toEqual([0, 1]);
  });
});
