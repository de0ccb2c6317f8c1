// The pure comparison of two workspace states. Identity across paths is the item key; text is only
// the fallback for items of snapshots older than keys. The document diff is jsdiff's word diff with
// whitespace as tokens, so each side is exactly the concatenation of its hunks.
import { diffWordsWithSpace } from 'diff';
import type { WorkspaceState } from '../workspace/snapshot';
import type {
  ArtifactComparison,
  ChangeSummary,
  DocumentHunk,
  ItemStatus,
  PreferenceComparison,
  TodoComparison,
  WorkspaceComparison,
} from './contracts';

export interface ComparedArtifact {
  key: string | null;
  title: string;
  kind: string;
}

/** A workspace state as compared: the restore state plus its artifacts (title and kind only). */
export interface CompareState extends WorkspaceState {
  artifacts: ComparedArtifact[];
}

export function compareWorkspaces(a: CompareState, b: CompareState): WorkspaceComparison {
  return {
    objective: { a: a.objective, b: b.objective, changed: a.objective !== b.objective },
    document: compareDocuments(a.document, b.document),
    preferences: compareLists(a.preferences, b.preferences, (x, y, moved) => {
      const changes: PreferenceComparison['changes'] = [];
      if (x.text !== y.text) changes.push('text');
      if (x.locked !== y.locked) changes.push('locked');
      if (moved) changes.push('position');
      return changes;
    }).map(({ key, status, changes, a: x, b: y }) => ({
      key,
      status,
      changes,
      a: x && { text: x.text, locked: x.locked },
      b: y && { text: y.text, locked: y.locked },
    })),
    todos: compareLists(a.todos, b.todos, (x, y, moved) => {
      const changes: TodoComparison['changes'] = [];
      if (x.text !== y.text) changes.push('text');
      if (x.done !== y.done) changes.push('done');
      if (x.depth !== y.depth) changes.push('depth');
      if (moved) changes.push('position');
      return changes;
    }).map(({ key, status, changes, a: x, b: y }) => ({
      key,
      status,
      changes,
      a: x && { text: x.text, done: x.done, depth: x.depth },
      b: y && { text: y.text, done: y.done, depth: y.depth },
    })),
    artifacts: compareLists(
      a.artifacts.map((x) => ({ ...x, text: `${x.kind}\u0000${x.title}` })),
      b.artifacts.map((x) => ({ ...x, text: `${x.kind}\u0000${x.title}` })),
      (x, y) => (x.title !== y.title || x.kind !== y.kind ? ['title'] : []),
    ).map(({ key, status, a: x, b: y }): ArtifactComparison => ({
      key,
      status,
      a: x && { title: x.title, kind: x.kind },
      b: y && { title: y.title, kind: y.kind },
    })),
  };
}

/** Word-level document diff: one jsdiff pass gives both the hunks and the word counts. */
export function compareDocuments(
  a: { title: string; content: string },
  b: { title: string; content: string },
): WorkspaceComparison['document'] {
  const title = { a: a.title, b: b.title, changed: a.title !== b.title };
  if (a.content === b.content) {
    return { title, changed: false, words_added: 0, words_removed: 0, hunks: a.content ? [{ op: 'equal', text: a.content }] : [] };
  }
  const hunks: DocumentHunk[] = [];
  let added = 0;
  let removed = 0;
  for (const part of diffWordsWithSpace(a.content, b.content)) {
    const op = part.added ? 'insert' : part.removed ? 'delete' : 'equal';
    if (op === 'insert') added += countWords(part.value);
    if (op === 'delete') removed += countWords(part.value);
    const last = hunks.at(-1);
    if (last?.op === op) last.text += part.value;
    else hunks.push({ op, text: part.value });
  }
  return { title, changed: true, words_added: added, words_removed: removed, hunks };
}

function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** The counts the graph shows for a step (`change_summary`). */
export function summarizeComparison(c: WorkspaceComparison): ChangeSummary {
  const items = [...c.preferences, ...c.todos, ...c.artifacts];
  const count = (status: ItemStatus) => items.filter((item) => item.status === status).length;
  return {
    words_added: c.document.words_added,
    words_removed: c.document.words_removed,
    items_added: count('added'),
    items_removed: count('removed'),
    items_edited: count('edited') + (c.objective.changed ? 1 : 0) + (c.document.title.changed ? 1 : 0),
  };
}

interface Keyed {
  key: string | null;
  text: string;
}

interface Paired<T, C> {
  key: string | null;
  status: ItemStatus;
  changes: C[];
  a: T | null;
  b: T | null;
}

/**
 * Pairs the items of two lists and classifies each pair. Items pair by key; an item without a key
 * (from a snapshot older than keys) pairs by text, the i-th of a text on one side with the i-th of
 * that text on the other — a rule that reads the same from either side, so compare(a, b) mirrors
 * compare(b, a). `position` means the item's place among the items both sides hold changed, so an
 * insertion or a deletion elsewhere moves nothing. The result follows b's order, each removed item
 * right after the item that preceded it on a.
 */
function compareLists<T extends Keyed, C>(
  a: readonly T[],
  b: readonly T[],
  diff: (x: T, y: T, moved: boolean) => C[],
): Paired<T, C>[] {
  const partnerOfA = new Array<number>(a.length).fill(-1);
  const partnerOfB = new Array<number>(b.length).fill(-1);
  const bByKey = new Map<string, number>();
  b.forEach((item, j) => {
    if (item.key !== null && !bByKey.has(item.key)) bByKey.set(item.key, j);
  });
  a.forEach((item, i) => {
    const j = item.key === null ? undefined : bByKey.get(item.key);
    if (j !== undefined && partnerOfB[j] === -1) {
      partnerOfA[i] = j;
      partnerOfB[j] = i;
    }
  });
  const byText = (items: readonly T[], partners: number[]) => {
    const groups = new Map<string, number[]>();
    items.forEach((item, i) => {
      if (partners[i] !== -1) return;
      const group = groups.get(item.text);
      if (group) group.push(i);
      else groups.set(item.text, [i]);
    });
    return groups;
  };
  const bTexts = byText(b, partnerOfB);
  for (const [text, is] of byText(a, partnerOfA)) {
    const js = bTexts.get(text) ?? [];
    for (let n = 0; n < Math.min(is.length, js.length); n++) {
      const i = is[n]!;
      const j = js[n]!;
      if (a[i]!.key !== null && b[j]!.key !== null) continue;
      partnerOfA[i] = j;
      partnerOfB[j] = i;
    }
  }

  // Rank among the paired items on each side.
  const rankA = new Map<number, number>();
  partnerOfA.forEach((j, i) => j !== -1 && rankA.set(i, rankA.size));
  const rankB = new Map<number, number>();
  partnerOfB.forEach((i, j) => i !== -1 && rankB.set(j, rankB.size));

  const removedAfter = new Map<number, Paired<T, C>[]>();
  let previous = -1;
  a.forEach((item, i) => {
    const j = partnerOfA[i]!;
    if (j !== -1) {
      previous = j;
      return;
    }
    const list = removedAfter.get(previous) ?? [];
    list.push({ key: item.key, status: 'removed', changes: [], a: item, b: null });
    removedAfter.set(previous, list);
  });
  const out: Paired<T, C>[] = [...(removedAfter.get(-1) ?? [])];
  b.forEach((item, j) => {
    const i = partnerOfB[j]!;
    if (i === -1) {
      out.push({ key: item.key, status: 'added', changes: [], a: null, b: item });
    } else {
      const x = a[i]!;
      const changes = diff(x, item, rankA.get(i) !== rankB.get(j));
      out.push({ key: x.key ?? item.key, status: changes.length > 0 ? 'edited' : 'unchanged', changes, a: x, b: item });
    }
    out.push(...(removedAfter.get(j) ?? []));
  });
  return out;
}
