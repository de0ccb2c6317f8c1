// Which threads an import creates, decided before anything is written. Pure.
//
// All leaves as ONE family: the leaves' turn sequences, in the inspector's (physical) order, are
// inserted into a trie of turns. Each trie node is owned by exactly one thread, so shared prefixes
// are shared ancestors: a leaf that agrees with the trie up to turn m (same records) and then
// differs becomes a branch at m of the thread owning turn m (m = 0: of the family root) and owns
// turns m+1…n; a leaf whose turns are all in the trie already adds nothing and is shown by the
// thread owning its last turn. The first leaf with a turn becomes the root.
//
// Chosen leaves as separate conversations: one root per leaf, owning its whole chain.
import { AppError } from '@trellis/domain';
import { MAX_LINEAGE_DEPTH } from '../lineage/load-lineage';
import { clampTitle } from './transcript-titles';
import type { ImportedTurn } from './transcript-turns';

export interface LeafPath {
  leafUuid: string;
  turns: readonly ImportedTurn[];
  /** Its title as a conversation of its own. */
  title: string;
  /** The title comes from the transcript's metadata, not from the first prompt. */
  hasOwnTitle: boolean;
}

export interface PlannedThread {
  threadId: string;
  parentThreadId: string | null;
  /** Null for a root; a branch owns the turns after it. */
  branchPointTurn: number | null;
  /** Branch rows between it and its root. */
  depth: number;
  title: string;
  /** Turns 1…tip of the path it shows; it owns those after `branchPointTurn`. */
  path: readonly ImportedTurn[];
}

export interface ImportPlan {
  /** Creation order: every parent before its children. */
  threads: PlannedThread[];
  conversations: { leaf_uuid: string; thread_id: string }[];
  root_thread_id: string | null;
}

interface TrieNode {
  owner: PlannedThread;
  children: Map<string, TrieNode>;
}

export function planFamily(leaves: readonly LeafPath[], newThreadId: () => string): ImportPlan {
  const first = leaves.find((leaf) => leaf.turns.length > 0);
  if (first === undefined) throw noTurns();
  const root: PlannedThread = {
    threadId: newThreadId(),
    parentThreadId: null,
    branchPointTurn: null,
    depth: 0,
    title: first.title,
    path: first.turns,
  };
  const threads = [root];
  const trie: TrieNode = { owner: root, children: new Map() };
  const grow = (from: TrieNode, turns: readonly ImportedTurn[], start: number, owner: PlannedThread) => {
    let node = from;
    for (let i = start; i < turns.length; i++) {
      const child: TrieNode = { owner, children: new Map() };
      node.children.set(turns[i]!.key, child);
      node = child;
    }
  };
  grow(trie, first.turns, 0, root);

  const conversations = leaves.map((leaf) => {
    let node = trie;
    let m = 0;
    while (m < leaf.turns.length) {
      const next = node.children.get(leaf.turns[m]!.key);
      if (next === undefined) break;
      node = next;
      m++;
    }
    if (m === leaf.turns.length) return { leaf_uuid: leaf.leafUuid, thread_id: node.owner.threadId };
    const parent = node.owner;
    if (parent.depth + 1 > MAX_LINEAGE_DEPTH) throw tooDeep(leaf.leafUuid);
    const branch: PlannedThread = {
      threadId: newThreadId(),
      parentThreadId: parent.threadId,
      branchPointTurn: m,
      depth: parent.depth + 1,
      // Like a branch made in the studio, a fork is named by its first own prompt unless it was given a title.
      title: leaf.hasOwnTitle ? leaf.title : clampTitle(leaf.turns[m]!.prompt),
      path: leaf.turns,
    };
    threads.push(branch);
    grow(node, leaf.turns, m, branch);
    return { leaf_uuid: leaf.leafUuid, thread_id: branch.threadId };
  });
  return { threads, conversations, root_thread_id: root.threadId };
}

export function planSeparate(leaves: readonly LeafPath[], newThreadId: () => string): ImportPlan {
  const empty = leaves.filter((leaf) => leaf.turns.length === 0).map((leaf) => leaf.leafUuid);
  if (empty.length > 0) {
    throw AppError.validation(
      empty.map((uuid) => ({ path: 'leaf_uuids', message: `leaf ${uuid} has no user prompt to import` })),
      'Some chosen leaves hold no user prompt, so they would import as empty conversations',
    );
  }
  const threads = leaves.map(
    (leaf): PlannedThread => ({
      threadId: newThreadId(),
      parentThreadId: null,
      branchPointTurn: null,
      depth: 0,
      title: leaf.title,
      path: leaf.turns,
    }),
  );
  return {
    threads,
    conversations: leaves.map((leaf, i) => ({ leaf_uuid: leaf.leafUuid, thread_id: threads[i]!.threadId })),
    root_thread_id: null,
  };
}

/** The turns a thread owns, with their turn indexes. */
export function ownedTurns(thread: PlannedThread): { turnIndex: number; turn: ImportedTurn }[] {
  const from = thread.branchPointTurn ?? 0;
  return thread.path.slice(from).map((turn, i) => ({ turnIndex: from + i + 1, turn }));
}

function noTurns(): AppError {
  return new AppError(
    'validation_failed',
    'The transcript holds no user prompt, so there is no conversation to import',
    { details: { issues: [{ path: 'content', message: 'no leaf has a user prompt' }] } },
  );
}

function tooDeep(leafUuid: string): AppError {
  return new AppError(
    'validation_failed',
    `The transcript's forks nest deeper than ${MAX_LINEAGE_DEPTH} levels; import its leaves as separate conversations instead`,
    { details: { issues: [{ path: 'content', message: `leaf ${leafUuid} would nest too deep` }] } },
  );
}
