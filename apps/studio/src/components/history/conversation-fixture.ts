import type { Conversation } from '@trellis/domain';

export interface ConversationFixtureOptions {
  parent?: string | null;
  at?: number;
  archived?: boolean;
  starred?: boolean;
  /** The branch's reason (`regenerate`, `edit`, …); `continue` by default on a branch. */
  reason?: string;
  title?: string;
  /** The path's latest step (`turn_index`); 3 by default, at least the branch point. */
  turns?: number;
}

/** A list item for the history tests: updated `updatedMinute` minutes into 2026; a branch when `parent` is given. */
export function conversationFixture(
  id: string,
  updatedMinute: number,
  { parent = null, at, archived = false, starred = false, reason, title, turns }: ConversationFixtureOptions = {},
): Conversation {
  const iso = new Date(Date.UTC(2026, 0, 1, 0, updatedMinute)).toISOString();
  const branchPoint = parent === null ? null : (at ?? 1);
  return {
    thread_id: id,
    title: title ?? id,
    starred,
    archived,
    turn_index: turns ?? Math.max(3, branchPoint ?? 0),
    message_count: 6,
    parent_thread_id: parent,
    branch_point_turn: branchPoint,
    branch_reason: parent === null ? null : (reason ?? 'continue'),
    root_thread_id: parent ?? id,
    role: 'owner',
    created_at: iso,
    updated_at: iso,
  };
}
