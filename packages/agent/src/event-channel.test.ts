import { describe, expect, it } from 'vitest';
import { EventChannel } from './event-channel';

describe('EventChannel', () => {
  it('hands buffered and later values to one consumer, and ends after close', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    const waiting = channel.next();
    expect(await waiting).toEqual({ value: 1, done: false });
    const pending = channel.next();
    channel.push(2);
    expect(await pending).toEqual({ value: 2, done: false });
    const end = channel.next();
    channel.close();
    expect(await end).toEqual({ value: undefined, done: true });
  });

  it('does not call onReturn when the consumer returns after the end', async () => {
    let calls = 0;
    const channel = new EventChannel<number>(() => calls++);
    channel.close();
    await channel.return();
    expect(calls).toBe(0);
  });
});
