import type { ConversationList } from '@trellis/domain';
import { nestConversations, splitArchived, type NestedConversation } from './nest-conversations';
import { foldReplyAlternatives } from './reply-alternatives';

/**
 * The history menu's rows over the loaded pages: one row per path, with its nesting depth; a
 * step's regenerated replies are folded into the row they branched from.
 */
export interface HistoryRows {
  active: NestedConversation[];
  /** Families other people shared with the caller (not archived): the menu's "Shared with me". */
  shared: NestedConversation[];
  archived: NestedConversation[];
}

/**
 * The menu's groups over the loaded pages, flattened into rows. Pages hold whole families, so
 * each page is nested on its own and the pages follow one another: loading the next page only
 * appends rows below, which keeps a virtualised list's measured rows in place.
 */
export function historyRows(pages: readonly Pick<ConversationList, 'conversations'>[]): HistoryRows {
  const active: NestedConversation[] = [];
  const shared: NestedConversation[] = [];
  const archived: NestedConversation[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    // A conversation met on an earlier page (a refetch in flight moved a family) shows once.
    const fresh = page.conversations.filter((c) => !seen.has(c.thread_id));
    for (const c of fresh) seen.add(c.thread_id);
    const { paths, alternativesOf } = foldReplyAlternatives(fresh);
    const split = splitArchived(paths);
    active.push(...nestConversations(split.active.filter((c) => c.role === 'owner'), alternativesOf));
    shared.push(...nestConversations(split.active.filter((c) => c.role !== 'owner'), alternativesOf));
    archived.push(...nestConversations(split.archived, alternativesOf));
  }
  return { active, shared, archived };
}

/**
 * The row indexes to mount: the visible window, plus the row holding keyboard focus when it has
 * scrolled out of that window (unmounting it would drop focus to the page), in list order.
 */
export function rowsToMount(window: readonly number[], focused: number | null, rowCount: number): number[] {
  if (focused === null || focused < 0 || focused >= rowCount || window.includes(focused)) return [...window];
  return [...window, focused].sort((a, b) => a - b);
}
