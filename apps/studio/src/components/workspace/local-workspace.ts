// The workspace of a restored preview (docs/branching.md, "The restore rule"): edited as local
// state, compared with the state it was restored to, and sent as the branch's override when edited.
import type { UpdatePreference, UpdateTodo, Workspace, WorkspaceOverride } from '@trellis/domain';

/** Items added in a preview carry this id prefix; they exist only in the page until a send branches. */
export const LOCAL_ID_PREFIX = 'local-';

export type LocalEdit =
  | { kind: 'objective'; text: string | null }
  | { kind: 'document-title'; title: string }
  | { kind: 'document-content'; content: string }
  | { kind: 'add-preference'; id: string; text: string }
  | { kind: 'update-preference'; id: string; patch: UpdatePreference }
  | { kind: 'remove-preference'; id: string }
  | { kind: 'reorder-preferences'; ids: readonly string[] }
  | { kind: 'add-todo'; id: string; text: string; depth: number }
  | { kind: 'update-todo'; id: string; patch: UpdateTodo }
  | { kind: 'remove-todo'; id: string }
  | { kind: 'reorder-todos'; ids: readonly string[] };

/** The workspace after one edit, exactly as the REST endpoints would leave the live rows. */
export function applyLocalEdit(w: Workspace, edit: LocalEdit): Workspace {
  switch (edit.kind) {
    case 'objective':
      return { ...w, objective: edit.text };
    case 'document-title':
      return { ...w, document: { ...w.document, title: edit.title } };
    case 'document-content':
      return { ...w, document: { ...w.document, content: edit.content } };
    case 'add-preference':
      return {
        ...w,
        preferences: [
          ...w.preferences,
          { id: edit.id, key: null, text: edit.text, locked: false, position: w.preferences.length },
        ],
      };
    case 'update-preference':
      return {
        ...w,
        preferences: w.preferences.map((p) => (p.id === edit.id ? { ...p, ...defined(edit.patch) } : p)),
      };
    case 'remove-preference':
      return { ...w, preferences: renumber(w.preferences.filter((p) => p.id !== edit.id)) };
    case 'reorder-preferences':
      return { ...w, preferences: reorder(w.preferences, edit.ids) };
    case 'add-todo':
      return {
        ...w,
        todos: [
          ...w.todos,
          { id: edit.id, key: null, text: edit.text, depth: edit.depth, done: false, position: w.todos.length },
        ],
      };
    case 'update-todo':
      return { ...w, todos: w.todos.map((t) => (t.id === edit.id ? { ...t, ...defined(edit.patch) } : t)) };
    case 'remove-todo':
      return { ...w, todos: renumber(w.todos.filter((t) => t.id !== edit.id)) };
    case 'reorder-todos':
      return { ...w, todos: reorder(w.todos, edit.ids) };
  }
}

/**
 * What a branch would be seeded with: objective, document, and the preferences and todos in order
 * with their flags. Ids, positions and artifacts are not part of it (artifacts cannot be edited), so
 * an edit that is undone leaves the signature where it started.
 */
export function workspaceSignature(w: Workspace): string {
  return JSON.stringify([
    w.objective,
    w.document.title,
    w.document.content,
    w.preferences.map((p) => [p.text, p.locked]),
    w.todos.map((t) => [t.text, t.done, t.depth]),
  ]);
}

/** The displayed workspace as the branch request's `workspace` override (positions from list order). */
export function toWorkspaceOverride(w: Workspace): WorkspaceOverride {
  return {
    objective: w.objective,
    document: { title: w.document.title, content: w.document.content },
    // A kept item sends its key back so the branch's copy keeps its identity; a new one has none.
    preferences: w.preferences.map((p) => ({ ...(p.key ? { key: p.key } : {}), text: p.text, locked: p.locked })),
    todos: w.todos.map((t) => ({ ...(t.key ? { key: t.key } : {}), text: t.text, done: t.done, depth: t.depth })),
  };
}

function defined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function renumber<T extends { position: number }>(items: readonly T[]): T[] {
  return items.map((item, position) => (item.position === position ? item : { ...item, position }));
}

/** The items in the order of `ids`; items `ids` leaves out keep their order after them. */
function reorder<T extends { id: string; position: number }>(
  items: readonly T[],
  ids: readonly string[],
): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const listed = ids.flatMap((id) => {
    const item = byId.get(id);
    if (item === undefined) return [];
    byId.delete(id);
    return [item];
  });
  return renumber([...listed, ...items.filter((item) => byId.has(item.id))]);
}
