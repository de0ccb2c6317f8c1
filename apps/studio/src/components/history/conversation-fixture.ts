import type { Conversation } from '@trellis/domain';

/** A list item for the history tests: updated `updatedMinute` minutes into 2026; a branch when `parent` is given. */
export function conversationFixture(
  id: string,
  updatedMinute: number,
  { parent = null, at, archived = false }: { parent?: string | null; at?: number; archived?: boolean } = {},
): Conversation {
  const iso = new Date(Date.UTC(2026, 0, 1, 0, updatedMinute)).toISOString();
  return {
    thread_id: id,
    title: id,
    starred: false,
    archived,
    turn_index: 3,
    message_count: 6,
    parent_thread_id: parent,
    branch_point_turn: parent === null ? null : (at ?? 1),
    branch_reason: parent === null ? null : 'continue',
    root_thread_id: parent ?? id,
    created_at: iso,
    updated_at: iso,
  };
}
