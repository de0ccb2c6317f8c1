import { z } from 'zod';

/**
 * The typed JSON a workspace snapshot stores. Older snapshots may lack
 * `objective`, a preference's `locked` or a todo's `depth`: readers default them
 * to none / unlocked / 0 (docs/branching.md, "Creating a branch: three phases and the sweeper"). Snapshots older than item
 * keys have no `key`: their items read back with `key: null` and are matched by text.
 */
export const SnapshotPreferenceSchema = z.object({ text: z.string(), locked: z.boolean().optional(), key: z.string().optional() });
export const SnapshotTodoSchema = z.object({
  key: z.string().optional(),
  text: z.string(),
  done: z.boolean().optional(),
  depth: z.number().int().min(0).optional(),
});
export const SnapshotPreferencesSchema = z.array(SnapshotPreferenceSchema);
export const SnapshotTodosSchema = z.array(SnapshotTodoSchema);
export type SnapshotPreference = z.infer<typeof SnapshotPreferenceSchema>;
export type SnapshotTodo = z.infer<typeof SnapshotTodoSchema>;

/** A workspace without ids or positions: what a snapshot holds and what a branch is seeded from. */
export interface WorkspaceState {
  objective: string | null;
  document: { title: string; content: string };
  preferences: { key: string | null; text: string; locked: boolean }[];
  todos: { key: string | null; text: string; done: boolean; depth: number }[];
}

export function normalizeSnapshotPreferences(value: unknown): WorkspaceState['preferences'] {
  const parsed = SnapshotPreferencesSchema.safeParse(value);
  if (!parsed.success) return [];
  return parsed.data.map((p) => ({ key: p.key ?? null, text: p.text, locked: p.locked ?? false }));
}

export function normalizeSnapshotTodos(value: unknown): WorkspaceState['todos'] {
  const parsed = SnapshotTodosSchema.safeParse(value);
  if (!parsed.success) return [];
  return parsed.data.map((t) => ({ key: t.key ?? null, text: t.text, done: t.done ?? false, depth: t.depth ?? 0 }));
}

/** A short, single-line preview of a user message for graph nodes and sibling lists. */
export function previewText(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
