import { describe, expect, it } from 'vitest';
import { openedRunOf, type PathAtOpen } from './path-at-open';
import { isRunActive } from './turn-store';
import { pendingTurnView } from './pending-turn';

const atOpen: PathAtOpen = {
  threadId: 'th_a',
  transcript: { messages: [], has_more: false, running_turn: 3 },
  readAt: 0,
  runningTurn: { turn: 3, content: 'todo: Water daily', attempt: 2 },
  replySoFar: { text: 'Adding', tools: [{ name: 'add_todo', args: {}, result: 'ok', is_error: false }], startedAt: '2026-12-07T08:00:00.000Z' },
};

describe('openedRunOf', () => {
  it('is the followed run the page will have: streaming at its turn and attempt, with the reply so far', () => {
    const run = openedRunOf(atOpen);
    expect(run).toMatchObject({
      threadId: 'th_a',
      content: 'todo: Water daily',
      turnIndex: 3,
      attempt: 2,
      text: 'Adding',
      startedAt: '2026-12-07T08:00:00.000Z',
      isFollowed: true,
    });
    expect(run?.tools).toHaveLength(1);
    expect(isRunActive(run ?? undefined)).toBe(true);
    // Its bubbles stand in for the turn's stored rows, as the followed run's will.
    expect(pendingTurnView(run ?? undefined, [])).toEqual({ showBubbles: true, hideTurn: 3 });
  });

  it('is null without a running turn or without its reply so far (another process runs it)', () => {
    expect(openedRunOf(null)).toBeNull();
    expect(openedRunOf({ ...atOpen, runningTurn: null })).toBeNull();
    expect(openedRunOf({ ...atOpen, replySoFar: null })).toBeNull();
  });
});
