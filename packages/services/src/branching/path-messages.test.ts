import { describe, expect, it } from 'vitest';
import { toMessage, withoutReplacedAttempts, type MessageRow } from './path-messages';

const m = (thread: string, turn: number, role: 'user' | 'assistant' | 'system', attempt?: number) => ({
  thread_id: thread,
  turn_index: turn,
  role,
  ...(attempt === undefined ? {} : { attempt }),
});

describe('withoutReplacedAttempts', () => {
  it('keeps each turn’s last attempt at its reply and every other message', () => {
    const messages = [m('a', 1, 'user'), m('a', 1, 'assistant'), m('a', 1, 'assistant', 2), m('a', 1, 'assistant', 3), m('a', 2, 'user'), m('a', 2, 'assistant'), m('b', 2, 'assistant')];
    expect(withoutReplacedAttempts(messages)).toEqual([m('a', 1, 'user'), m('a', 1, 'assistant', 3), m('a', 2, 'user'), m('a', 2, 'assistant'), m('b', 2, 'assistant')]);
  });
});

/** The columns every message carries, as the API has them. */
const always = {
  id: 'm1',
  thread_id: 'th_1',
  turn_index: 3,
  role: 'assistant',
  content: 'A reply.',
  tool_calls: [],
  status: 'complete',
  reason: null,
  created_at: '2026-01-02T03:04:05.678Z',
} as const;

const plain: MessageRow = {
  ...always,
  tool_calls: [],
  compacted_before: false,
  kind: null,
  provenance: null,
  reason_code: null,
  retry_after_s: null,
  attempt: 1,
  input_tokens: null,
  output_tokens: null,
  model: null,
  refs: null,
  citations: null,
  author_id: null,
  author_name: null,
  seq: 7,
};

describe('toMessage', () => {
  it('carries the columns every message has, and none of the unset ones', () => {
    expect(toMessage(plain)).toStrictEqual({ ...always, tool_calls: [] });
  });

  it('carries each optional field where it is set', () => {
    const ref = { thread_id: 'th_2', turn: 1 } as unknown as NonNullable<MessageRow['refs']>[number];
    const message = toMessage({
      ...plain,
      status: 'failed',
      reason: 'the provider refused',
      compacted_before: true,
      reason_code: 'rate_limited',
      retry_after_s: 30,
      attempt: 2,
      input_tokens: 10,
      output_tokens: 20,
      model: 'offline',
      refs: [ref],
      citations: [ref],
      author_id: 'u1',
      author_name: 'Ana',
    });
    expect(message).toMatchObject({
      status: 'failed',
      reason: 'the provider refused',
      compacted_before: true,
      reason_code: 'rate_limited',
      retry_after_s: 30,
      attempt: 2,
      usage: { input_tokens: 10, output_tokens: 20, model: 'offline' },
      refs: [ref],
      citations: [ref],
      author: { user_id: 'u1', name: 'Ana' },
    });
    expect(message).not.toHaveProperty('seq');
    expect(message).not.toHaveProperty('author_id');
  });

  it('leaves out usage unless all of it is known, and empty reference lists', () => {
    const message = toMessage({ ...plain, input_tokens: 10, output_tokens: null, model: 'offline', refs: [], citations: [] });
    expect(message).not.toHaveProperty('usage');
    expect(message).not.toHaveProperty('refs');
    expect(message).not.toHaveProperty('citations');
  });
});
