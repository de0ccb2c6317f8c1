import { describe, expect, it } from 'vitest';
import type { Message } from '@trellis/domain';
import type { TurnRun } from './turn-store';
import { isRefusedSend, pendingTurnView, replyingTurn } from './pending-turn';

const run = (patch: Partial<TurnRun>): TurnRun => ({
  runId: 1,
  threadId: 't',
  content: 'hi',
  phase: 'streaming',
  turnIndex: 2,
  messageId: null,
  text: '',
  tools: [],
  error: null,
  startedAt: '2025-01-01T00:00:00Z',
  isFollowed: false,
  isStopping: false,
  status: null,
  statusAt: null,
  attempt: 1,
  ...patch,
});
const message = (turn: number): Message => ({
  id: `m${turn}`,
  thread_id: 't',
  turn_index: turn,
  role: 'user',
  content: 'x',
  tool_calls: [],
  status: 'complete',
  created_at: '2025-01-01T00:00:00Z',
});

describe('pendingTurnView', () => {
  it('shows the bubbles while running and hides stored rows of the same turn', () => {
    expect(pendingTurnView(run({}), [message(1), message(2)])).toEqual({ showBubbles: true, hideTurn: 2 });
  });

  it('hands over to the transcript once it holds the finished turn', () => {
    expect(pendingTurnView(run({ phase: 'done' }), [message(1)])).toEqual({
      showBubbles: true,
      hideTurn: null,
    });
    expect(pendingTurnView(run({ phase: 'done' }), [message(1), message(2)])).toEqual({
      showBubbles: false,
      hideTurn: null,
    });
  });

  it('keeps a retry’s bubbles until the transcript holds its attempt, not just the failed one before it', () => {
    const failed: Message = { ...message(2), id: 'a1', role: 'assistant', status: 'failed' };
    const retried: Message = { ...message(2), id: 'a2', role: 'assistant', attempt: 2 };
    const finished = run({ phase: 'done', attempt: 2 });
    expect(pendingTurnView(finished, [message(2), failed])).toEqual({ showBubbles: true, hideTurn: null });
    expect(pendingTurnView(finished, [message(2), failed, retried])).toEqual({ showBubbles: false, hideTurn: null });
  });

  it('shows nothing for a turn the server never accepted', () => {
    expect(pendingTurnView(run({ phase: 'failed', turnIndex: null }), [])).toEqual({
      showBubbles: false,
      hideTurn: null,
    });
  });
});

describe('isRefusedSend', () => {
  it('gives a refused send back to the composer, never a followed question that was not running', () => {
    const refused = run({ phase: 'failed', turnIndex: null });
    expect(isRefusedSend(refused)).toBe(true);
    // An imported family whose last question was abandoned: the page follows it, the server says no turn runs.
    expect(isRefusedSend({ ...refused, isFollowed: true })).toBe(false);
    expect(isRefusedSend(run({ phase: 'failed', turnIndex: 3 }))).toBe(false);
    expect(isRefusedSend(undefined)).toBe(false);
  });
});

describe('replyingTurn', () => {
  it('is the active run’s turn on the displayed path, its own or a followed one', () => {
    expect(replyingTurn(run({ turnIndex: 3 }), 't', null)).toBe(3);
    expect(replyingTurn(run({ turnIndex: 3, phase: 'sending', isFollowed: true }), 't', 3)).toBe(3);
  });

  it('is the turn the server says runs before the page follows it (a reload), and none when none runs', () => {
    expect(replyingTurn(undefined, 't', 5)).toBe(5);
    expect(replyingTurn(run({ phase: 'done', turnIndex: 4 }), 't', 5)).toBe(5);
    expect(replyingTurn(run({ phase: 'done', turnIndex: 4 }), 't', null)).toBeNull();
    expect(replyingTurn(undefined, 't', null)).toBeNull();
  });

  it('ignores a run of another path and a send not yet committed, and a page with no path', () => {
    expect(replyingTurn(run({ threadId: 'u', turnIndex: 2 }), 't', null)).toBeNull();
    expect(replyingTurn(run({ phase: 'sending', turnIndex: null }), 't', null)).toBeNull();
    expect(replyingTurn(run({ turnIndex: 2 }), null, 2)).toBeNull();
  });
});
