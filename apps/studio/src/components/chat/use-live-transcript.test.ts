import type { Message } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { awaitsReply } from './use-live-transcript';

function message(turn: number, role: Message['role']): Message {
  return {
    id: `${turn}-${role}`,
    thread_id: 'th',
    turn_index: turn,
    role,
    content: '',
    tool_calls: [],
    status: 'complete',
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('a transcript waiting for the reply of a stopped or orphaned turn', () => {
  it('waits while the newest question has no reply row, and not once it has', () => {
    expect(awaitsReply([])).toBe(false);
    expect(awaitsReply([message(1, 'user')])).toBe(true);
    expect(awaitsReply([message(1, 'user'), message(1, 'assistant')])).toBe(false);
    expect(awaitsReply([message(1, 'user'), message(1, 'assistant'), message(2, 'user')])).toBe(true);
  });
});
