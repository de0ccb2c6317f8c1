import type { FamilyGraph, GraphThread } from '../graph/contracts';

/** One path that diverges at a step (docs/branching.md, "Siblings: edit and regenerate": an edit, a regeneration, or a continue-from-here). */
export interface SiblingPath {
  thread_id: string;
  label: string;
  created_at: string;
  preview: string | null;
}

export interface SiblingsAtStep {
  /** 0-based position of the displayed path among `siblings` (the UI shows `‹ index+1/n ›`). */
  index: number;
  siblings: SiblingPath[];
  /** The thread whose state after step k−1 every sibling starts from. */
  base_thread_id: string;
}

/**
 * The paths whose step k diverges at the same point as the displayed path's
 * (docs/branching.md, "Siblings: edit and regenerate"): the base B = the thread that owns
 * turn k−1 on the displayed lineage (the root for k = 1); B's own continuation at
 * step k when B owns turn k, plus every visible child of B branched at k−1.
 * Oldest first: a child by its creation, B's continuation by when its turn k began.
 * A step where nothing diverges has one sibling.
 */
export function siblingsAtStep(graph: FamilyGraph, k: number): SiblingsAtStep {
  const byId = new Map(graph.threads.map((t) => [t.thread_id, t]));
  const lineage = lineageIn(byId, graph.thread_id);
  const base = ownerOf(lineage, k - 1) ?? lineage[0];
  if (!base) return { index: 0, siblings: [], base_thread_id: graph.thread_id };
  const displayedAtK = ownerOf(lineage, k) ?? base;
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));

  const candidates: SiblingPath[] = [];
  if (ownsTurn(base, k)) {
    const node = nodes.get(`${base.thread_id}:${k}`);
    candidates.push({
      thread_id: base.thread_id,
      label: node?.label ?? `${k}${base.suffix}`,
      created_at: node?.captured_at ?? base.created_at,
      preview: node?.user_message ?? null,
    });
  }
  for (const child of graph.threads) {
    if (child.parent_thread_id !== base.thread_id || child.branch_point_turn !== k - 1) continue;
    if (child.is_deleted && child.thread_id !== displayedAtK.thread_id) continue;
    const node = nodes.get(`${child.thread_id}:${k}`);
    candidates.push({
      thread_id: child.thread_id,
      label: node?.label ?? `${k}${child.suffix}`,
      created_at: child.created_at,
      preview: node?.user_message ?? null,
    });
  }
  candidates.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.thread_id < b.thread_id ? -1 : 1));
  const index = Math.max(
    0,
    candidates.findIndex((c) => c.thread_id === displayedAtK.thread_id),
  );
  return { index, siblings: candidates, base_thread_id: base.thread_id };
}

/**
 * Where switching to a sibling lands (docs/branching.md, "Siblings: edit and regenerate"): the
 * sibling's subtree — the thread itself, or for the base's own continuation the
 * base plus the branches it grew at step k or later — is searched for the thread
 * viewed last; failing that, its most recently updated leaf.
 */
export function leafOfSibling(
  graph: FamilyGraph,
  sibling: { thread_id: string; base_thread_id: string; k: number },
  activity: { viewedAt: ReadonlyMap<string, string>; updatedAt: ReadonlyMap<string, string> },
): string {
  const childrenOf = new Map<string, GraphThread[]>();
  for (const t of graph.threads) {
    if (t.parent_thread_id === null || t.is_deleted) continue;
    childrenOf.set(t.parent_thread_id, [...(childrenOf.get(t.parent_thread_id) ?? []), t]);
  }
  const isBase = sibling.thread_id === sibling.base_thread_id;
  const subtree: string[] = [sibling.thread_id];
  const queue = (childrenOf.get(sibling.thread_id) ?? []).filter((c) => !isBase || (c.branch_point_turn ?? 0) >= sibling.k);
  while (queue.length > 0) {
    const next = queue.shift()!;
    subtree.push(next.thread_id);
    queue.push(...(childrenOf.get(next.thread_id) ?? []));
  }
  const latest = (ids: string[], at: ReadonlyMap<string, string>) =>
    ids.reduce<string | undefined>((best, id) => {
      const t = at.get(id);
      if (t === undefined) return best;
      const bt = best === undefined ? undefined : at.get(best);
      return bt === undefined || t > bt ? id : best;
    }, undefined);
  const viewed = latest(subtree, activity.viewedAt);
  if (viewed) return viewed;
  const leaves = subtree.filter((id) => {
    const kids = (childrenOf.get(id) ?? []).filter((c) => id !== sibling.thread_id || !isBase || (c.branch_point_turn ?? 0) >= sibling.k);
    return kids.length === 0;
  });
  return latest(leaves, activity.updatedAt) ?? leaves.at(-1) ?? sibling.thread_id;
}

function lineageIn(byId: ReadonlyMap<string, GraphThread>, threadId: string): GraphThread[] {
  const chain: GraphThread[] = [];
  const seen = new Set<string>();
  let current = byId.get(threadId);
  while (current && !seen.has(current.thread_id)) {
    chain.push(current);
    seen.add(current.thread_id);
    current = current.parent_thread_id === null ? undefined : byId.get(current.parent_thread_id);
  }
  return chain.reverse();
}

/** The lineage thread that owns turn `turn` (the deepest whose branch point is below it). */
function ownerOf(lineage: readonly GraphThread[], turn: number): GraphThread | undefined {
  for (let i = lineage.length - 1; i >= 0; i--) {
    const t = lineage[i]!;
    if (t.branch_point_turn === null || t.branch_point_turn < turn) return t;
  }
  return lineage[0];
}

function ownsTurn(thread: GraphThread, turn: number): boolean {
  const from = (thread.branch_point_turn ?? 0) + 1;
  return turn >= from && turn < from + thread.owned_turn_count;
}
