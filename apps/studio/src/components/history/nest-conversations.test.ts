import type { Conversation } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { nestConversations } from './nest-conversations';

function conversation(
  id: string,
  updatedMinute: number,
  parent: string | null = null,
  at: number | null = null,
): Conversation {
  const iso = new Date(Date.UTC(2026, 0, 1, 0, updatedMinute)).toISOString();
  return {
    thread_id: id,
    title: id,
    starred: false,
    archived: false,
    turn_index: 3,
    message_count: 6,
    parent_thread_id: parent,
    branch_point_turn: at,
    root_thread_id: parent ?? id,
    created_at: iso,
    updated_at: iso,
  };
}

const shape = (list: Conversation[]) =>
  nestConversations(list).map(({ conversation: c, depth }) => `${'  '.repeat(depth)}${c.thread_id}`);

describe('the history menu', () => {
  it('puts each branch one level under its parent, whatever order the list came in', () => {
    const list = [
      conversation('root', 1),
      conversation('b1', 2, 'root', 2),
      conversation('b1a', 3, 'b1', 4),
      conversation('b2', 4, 'root', 1),
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
      conversation('old-branch', 20, 'old', 1),
    ];
    expect(shape(list)).toEqual(['old', '  old-branch', 'recent']);
  });

  it('shows a branch whose parent was deleted on its own', () => {
    expect(shape([conversation('orphan', 1, 'gone', 2)])).toEqual(['orphan']);
  });

  it('never drops a conversation, even on a parent cycle', () => {
    const list = [conversation('a', 1, 'b', 1), conversation('b', 2, 'a', 1)];
    expect(
      nestConversations(list)
        .map((n) => n.conversation.thread_id)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});
