import { QueryClient } from '@tanstack/react-query';
import type { Presence } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/api/query-keys';
import { newerPresence, receivePresence } from './use-presence';

const entry = (name: string, isTyping: boolean) => ({
  client_id: `tab-${name}`,
  user_id: `u-${name}`,
  name,
  thread_id: 'th_1',
  turn_index: null,
  is_typing: isTyping,
  last_seen_at: '2026-12-07T10:00:00.000Z',
});
const list = (asOf: string, benTyping: boolean): Presence => ({
  family_id: 'th_1',
  people: [entry('Ana', true), entry('Ben', benTyping)],
  as_of: asOf,
});

describe('presence lists arriving out of order', () => {
  // Ana's heartbeat answer was read before Ben's typing was stored; the stream's message after it.
  const answer = list('2026-12-07T10:00:01.250100Z', false);
  const message = list('2026-12-07T10:00:01.250200Z', true);

  it('keep the later read, whichever arrives last', () => {
    expect(newerPresence(message, answer)).toBe(message);
    expect(newerPresence(answer, message)).toBe(message);
    expect(newerPresence(undefined, answer)).toBe(answer);
  });

  it('in the cache too: Ben stays typing when the older answer lands after the message', () => {
    const queryClient = new QueryClient();
    receivePresence(queryClient, 'th_1', message);
    receivePresence(queryClient, 'th_1', answer);
    const cached = queryClient.getQueryData<Presence>(queryKeys.presence('th_1'));
    expect(cached?.people.find((p) => p.name === 'Ben')?.is_typing).toBe(true);
  });
});
