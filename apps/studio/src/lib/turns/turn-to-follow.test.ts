import { describe, expect, it } from 'vitest';
import type { Message } from '@trellis/domain';
import { turnToFollow } from './turn-to-follow';

const message = (turn: number, role: 'user' | 'assistant', patch: Partial<Message> = {}): Message => ({
  id: `${role}${turn}-${Math.random()}`,
  thread_id: 't',
  turn_index: turn,
  role,
  content: role === 'user' ? `question ${turn}` : `reply ${turn}`,
  tool_calls: [],
  status: 'complete',
  created_at: '2025-01-01T00:00:00Z',
  ...patch,
});

describe('turnToFollow', () => {
  it('follows the turn the server says runs, with its question, as its first attempt', () => {
    expect(turnToFollow('t', [message(1, 'user'), message(1, 'assistant'), message(2, 'user')], 2)).toEqual({
      turn: 2,
      content: 'question 2',
      attempt: 1,
    });
  });

  it('follows a retry as the attempt after the replies its turn already has', () => {
    const stopped = message(2, 'assistant', { status: 'interrupted' });
    expect(turnToFollow('t', [message(1, 'user'), message(1, 'assistant'), message(2, 'user'), stopped], 2)).toEqual({
      turn: 2,
      content: 'question 2',
      attempt: 2,
    });
  });

  it('follows the newest question of this path when it has no reply, even before the server says it runs', () => {
    expect(turnToFollow('t', [message(1, 'user'), message(1, 'assistant'), message(2, 'user')], null)).toMatchObject({ turn: 2, attempt: 1 });
    // an ancestor's unanswered question is not this path's turn
    expect(turnToFollow('t', [message(1, 'user', { thread_id: 'parent' })], null)).toBeNull();
  });

  it('follows nothing when every question has its reply and none runs, or no path is shown', () => {
    expect(turnToFollow('t', [message(1, 'user'), message(1, 'assistant')], null)).toBeNull();
    expect(turnToFollow('t', [], null)).toBeNull();
    expect(turnToFollow(null, [message(1, 'user')], 1)).toBeNull();
  });
});
