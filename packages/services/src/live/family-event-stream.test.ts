import { describe, expect, it } from 'vitest';
import type { FamilyEvent } from '@trellis/domain';
import { formatFamilyEvent, toFamilyEventStream } from './family-event-stream';
import { FamilySubscription } from './family-subscription';

const event = (id: number, kind: FamilyEvent['kind'] = 'workspace_changed'): FamilyEvent => ({
  id,
  family_id: 'th_root',
  thread_id: 'th_root',
  kind,
  data: { note: 'two\nlines' },
  created_at: '2026-01-01T00:00:00.000Z',
});

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe('the family event stream', () => {
  it('sends each event with its id and kind, the JSON on one line', () => {
    expect(formatFamilyEvent(event(42, 'thread_updated'))).toBe(
      `id: 42\nevent: thread_updated\ndata: ${JSON.stringify(event(42, 'thread_updated'))}\n\n`,
    );
    expect(formatFamilyEvent(event(1)).split('\n').filter((l) => l.startsWith('data:'))).toHaveLength(1);
  });

  it('delivers each id once and in order, whatever a replay and the live fan-out overlap', async () => {
    const subscription = new FamilySubscription('th_root', 3, 100, () => undefined);
    subscription.offer(event(6));
    subscription.offer(event(5));
    subscription.replay([event(3), event(4), event(5)]);
    subscription.goLive();
    subscription.offer(event(6));
    subscription.offer(event(7));
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(((await subscription.next()).value as FamilyEvent).id);
    expect(ids).toEqual([4, 5, 6, 7]);
  });

  it('ends a subscriber that falls too far behind, and only it', () => {
    const ended: string[] = [];
    const slow = new FamilySubscription('th_root', 0, 2, (s) => ended.push(s.ended ?? ''));
    slow.goLive();
    for (let id = 1; id <= 3; id++) slow.offer(event(id));
    expect(slow.ended).toBe('slow');
    expect(ended).toEqual(['slow']);
  });

  it('keeps the connection alive with comments and ends when the caller may no longer read', async () => {
    const subscription = new FamilySubscription('th_root', 0, 100, () => undefined);
    subscription.goLive();
    let isAllowed = true;
    const stream = toFamilyEventStream(subscription, { keepAliveMs: 10, recheck: async () => isAllowed, recheckEveryMs: 20 });
    const reader = stream.getReader();
    expect(await readUntil(reader, ': connected')).toContain('retry: 2000');
    subscription.offer(event(1));
    expect(await readUntil(reader, 'id: 1\n')).toContain('event: workspace_changed');
    expect(await readUntil(reader, ': keep-alive')).toContain(': keep-alive');
    isAllowed = false;
    for (;;) if ((await reader.read()).done) break;
    expect(subscription.ended).toBe('access_revoked');
  });
});
