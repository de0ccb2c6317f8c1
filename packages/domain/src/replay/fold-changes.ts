// Replay: the workspace after any change of a path, from the snapshot that opens the
// change's step and the step's changes up to it. Snapshot t is the workspace before the agent acts on
// turn t, and every change of step t (the agent's in turn t, a person's before turn t+1) comes after
// it, so one step's changes are all a fold ever reads: moving one step costs that step, not the path.
import type { Change } from '../contracts/changes';
import { applyDocPatch, type DocPatch } from '../changes/doc-patch';
import type { WorkspaceState } from '../workspace/snapshot';

/** The workspace of a step that has no snapshot (before the first turn): empty. */
export const EMPTY_WORKSPACE: WorkspaceState = {
  objective: null,
  document: { title: '', content: '' },
  preferences: [],
  todos: [],
};

type FoldedChange = Pick<Change, 'kind' | 'key' | 'op' | 'before' | 'after'>;

/**
 * The workspace after `changes`, applied in order to `base`. Artifacts are not part of a workspace
 * state and pass through untouched. A change that does not fit (a patch longer than the text, an item
 * the state does not hold) is skipped rather than thrown: the next step's snapshot sets the record
 * straight, so a replay never fails on one odd row.
 */
export function foldChanges(base: WorkspaceState, changes: readonly FoldedChange[]): WorkspaceState {
  let state: WorkspaceState = {
    objective: base.objective,
    document: { ...base.document },
    preferences: base.preferences.map((p) => ({ ...p })),
    todos: base.todos.map((t) => ({ ...t })),
  };
  for (const change of changes) state = foldChange(state, change);
  return state;
}

function foldChange(state: WorkspaceState, change: FoldedChange): WorkspaceState {
  const after = record(change.after);
  switch (change.kind) {
    case 'objective':
      return { ...state, objective: typeof after.text === 'string' ? after.text : null };
    case 'document_title':
      return typeof after.title === 'string'
        ? { ...state, document: { ...state.document, title: after.title } }
        : state;
    case 'document': {
      if (change.op === 'set' && typeof after.title === 'string') {
        return { ...state, document: { ...state.document, title: after.title } };
      }
      if (!Array.isArray(after.patch)) return state;
      try {
        return {
          ...state,
          document: {
            ...state.document,
            content: applyDocPatch(state.document.content, after.patch as DocPatch),
          },
        };
      } catch {
        return state;
      }
    }
    case 'preference':
      return {
        ...state,
        preferences: foldItem(state.preferences, change, (fields, old) => ({
          key: change.key,
          text: typeof fields.text === 'string' ? fields.text : (old?.text ?? ''),
          locked: typeof fields.locked === 'boolean' ? fields.locked : (old?.locked ?? false),
        })),
      };
    case 'todo':
      return {
        ...state,
        todos: foldItem(state.todos, change, (fields, old) => ({
          key: change.key,
          text: typeof fields.text === 'string' ? fields.text : (old?.text ?? ''),
          done: typeof fields.done === 'boolean' ? fields.done : (old?.done ?? false),
          depth: typeof fields.depth === 'number' ? fields.depth : (old?.depth ?? 0),
        })),
      };
    case 'artifact':
      return state;
  }
}

/**
 * One change of an ordered list: `create` inserts at its `position` (lists are dense from 0),
 * `update` merges the changed fields, `delete` removes, `reorder` puts the listed keys, in their new
 * order, into the places the listed keys held (an item created in the same write keeps its place).
 */
function foldItem<T extends { key: string | null }>(
  list: T[],
  change: FoldedChange,
  build: (fields: Record<string, unknown>, old: T | undefined) => T,
): T[] {
  const after = record(change.after);
  switch (change.op) {
    case 'create': {
      const item = build(after, undefined);
      const position =
        typeof after.position === 'number' ? Math.min(Math.max(after.position, 0), list.length) : list.length;
      return [...list.slice(0, position), item, ...list.slice(position)];
    }
    case 'update':
      return list.map((item) => (item.key !== null && item.key === change.key ? build(after, item) : item));
    case 'delete':
      return list.filter((item) => item.key === null || item.key !== change.key);
    case 'reorder': {
      const order = Array.isArray(after.order) ? (after.order as unknown[]) : [];
      const listed = new Set(order);
      const byKey = new Map(list.map((item) => [item.key, item]));
      const moved = order.flatMap((key) => {
        const item = byKey.get(key as string | null);
        return item ? [item] : [];
      });
      let next = 0;
      return list.map((item) => (listed.has(item.key) ? (moved[next++] ?? item) : item));
    }
    default:
      return list;
  }
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
