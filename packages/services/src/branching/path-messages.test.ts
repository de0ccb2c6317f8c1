import { describe, expect, it } from 'vitest';
import { withoutReplacedAttempts } from './path-messages';

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
