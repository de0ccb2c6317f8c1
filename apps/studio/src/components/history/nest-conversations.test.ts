import type { Conversation } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { conversationFixture } from './conversation-fixture';
import { nestConversations } from './nest-conversations';

const conversation = conversationFixture;

const shape = (list: Conversation[]) =>
  nestConversations(list).map(({ conversation: c, depth }) => `${'  '.repeat(depth)}${c.thread_id}`);

describe('the history menu', () => {
  it('puts each branch one level under its parent, whatever order the list came in', () => {
    const list = [
      conversation('root', 1),
      conversation('b1', 2, { parent: 'root', at: 2 }),
      conversation('b1a', 3, { parent: 'b1', at: 4 }),
      conversation('b2', 4, { parent: 'root', at: 1 }),
      conversation('other', 0),
    ];
    const expected = ['root', '  b2', '  b1', '    b1a', 'other'];
    expect(shape(list)).toEqual(expected);
    expect(shape([...list].reverse())).toEqual(expected);
  });

  it('moves a family up when any of its branches is the most recent activity', () => {
    const list = [
      conversation('recent', 10),
      conversation('old', 1),
      conversation('old-branch', 20, { parent: 'old', at: 1 }),
    ];
    expect(shape(list)).toEqual(['old', '  old-branch', 'recent']);
  });

  it('shows a branch whose parent was deleted on its own', () => {
    expect(shape([conversation('orphan', 1, { parent: 'gone', at: 2 })])).toEqual(['orphan']);
  });

  it('never drops a conversation, even on a parent cycle', () => {
    const list = [conversation('a', 1, { parent: 'b', at: 1 }), conversation('b', 2, { parent: 'a', at: 1 })];
    expect(
      nestConversations(list)
        .map((n) => n.conversation.thread_id)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});
