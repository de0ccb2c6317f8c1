import type { Conversation } from '@trellis/domain';
import type { ReplyAlternativeGroup } from './reply-alternatives';

export interface NestedConversation {
  conversation: Conversation;
  /** 0 for a conversation of its own; a branch sits one level under its parent. */
  depth: number;
  /** Regenerated replies folded into this row, one group per step (see `foldReplyAlternatives`). */
  alternatives: ReplyAlternativeGroup[];
}

/**
 * The history menu's order (docs/branching.md, "The family graph"): every branch right under its
 * parent, one level deeper, and each group — a thread with all its branches — placed by its most
 * recent activity, so a family moves up when any of its paths is used. A branch whose parent is not
 * in the list (deleted) stands on its own. Built from ids only; the input order does not matter.
 * Starred paths are pinned at the top of their family: among siblings, a branch that is starred or
 * holds a starred path comes first, so a starred path sits as high as its nesting allows.
 */
export function nestConversations(
  list: readonly Conversation[],
  alternativesOf: ReadonlyMap<string, ReplyAlternativeGroup[]> = new Map(),
): NestedConversation[] {
  const ids = new Set(list.map((c) => c.thread_id));
  const childrenOf = new Map<string, Conversation[]>();
  const roots: Conversation[] = [];
  for (const conversation of list) {
    const parent = conversation.parent_thread_id;
    if (parent === null || parent === conversation.thread_id || !ids.has(parent)) {
      roots.push(conversation);
      continue;
    }
    const siblings = childrenOf.get(parent) ?? [];
    siblings.push(conversation);
    childrenOf.set(parent, siblings);
  }

  const latest = new Map<string, number>();
  const latestOf = (conversation: Conversation, seen: Set<string>): number => {
    const known = latest.get(conversation.thread_id);
    if (known !== undefined) return known;
    seen.add(conversation.thread_id);
    let value = Date.parse(conversation.updated_at);
    for (const child of childrenOf.get(conversation.thread_id) ?? []) {
      if (!seen.has(child.thread_id)) value = Math.max(value, latestOf(child, seen));
    }
    latest.set(conversation.thread_id, value);
    return value;
  };
  const byRecency = (a: Conversation, b: Conversation) =>
    latestOf(b, new Set()) - latestOf(a, new Set()) || a.thread_id.localeCompare(b.thread_id);

  const pinned = new Map<string, boolean>();
  const isPinned = (conversation: Conversation, seen: Set<string>): boolean => {
    const known = pinned.get(conversation.thread_id);
    if (known !== undefined) return known;
    seen.add(conversation.thread_id);
    const value =
      conversation.starred ||
      (childrenOf.get(conversation.thread_id) ?? []).some((child) => !seen.has(child.thread_id) && isPinned(child, seen));
    pinned.set(conversation.thread_id, value);
    return value;
  };
  const starredFirst = (a: Conversation, b: Conversation) =>
    Number(isPinned(b, new Set())) - Number(isPinned(a, new Set())) || byRecency(a, b);

  const out: NestedConversation[] = [];
  const placed = new Set<string>();
  const visit = (conversation: Conversation, depth: number) => {
    if (placed.has(conversation.thread_id)) return;
    placed.add(conversation.thread_id);
    out.push({ conversation, depth, alternatives: alternativesOf.get(conversation.thread_id) ?? [] });
    for (const child of [...(childrenOf.get(conversation.thread_id) ?? [])].sort(starredFirst))
      visit(child, depth + 1);
  };
  for (const root of [...roots].sort(byRecency)) visit(root, 0);
  // A parent cycle cannot come from the server (a thread has one parent, created before it); if one
  // ever did, its members still show rather than vanish.
  for (const conversation of list) visit(conversation, 0);
  return out;
}

/**
 * The history menu's two groups: paths in use, and archived paths with everything under them (an
 * archived path hides its subtree, like the API's list without `include_archived`).
 */
export function splitArchived(list: readonly Conversation[]): { active: Conversation[]; archived: Conversation[] } {
  const byId = new Map(list.map((c) => [c.thread_id, c]));
  const putAway = new Map<string, boolean>();
  const isPutAway = (c: Conversation, depth = 0): boolean => {
    const known = putAway.get(c.thread_id);
    if (known !== undefined) return known;
    const parent = c.parent_thread_id === null ? undefined : byId.get(c.parent_thread_id);
    const result = c.archived || (parent !== undefined && depth < 64 && isPutAway(parent, depth + 1));
    putAway.set(c.thread_id, result);
    return result;
  };
  const active: Conversation[] = [];
  const archived: Conversation[] = [];
  for (const c of list) (isPutAway(c) ? archived : active).push(c);
  return { active, archived };
}

/** How many paths of `list` sit under `threadId` (children, their children, …): they go with it when it is archived. */
export function countDescendants(list: readonly Conversation[], threadId: string): number {
  const childrenOf = new Map<string, string[]>();
  for (const c of list) {
    if (c.parent_thread_id === null || c.parent_thread_id === c.thread_id) continue;
    childrenOf.set(c.parent_thread_id, [...(childrenOf.get(c.parent_thread_id) ?? []), c.thread_id]);
  }
  const seen = new Set<string>([threadId]);
  const queue = [...(childrenOf.get(threadId) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(childrenOf.get(next) ?? []));
  }
  return seen.size - 1;
}
