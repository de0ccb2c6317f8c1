/**
 * Creation order of threads: `created_at`, ties broken by `thread_id`, with one repair — a parent always
 * precedes its children even if clocks say otherwise, so every fold over "threads in creation order" can
 * rely on the parent having been processed. Built from ids, never from the order rows arrived in.
 */
import { toEpochMs, type Timestamp } from './timestamps';

export interface CreatedThread {
  readonly thread_id: string;
  readonly parent_thread_id: string | null;
  readonly created_at: Timestamp;
}

export function compareByCreation(a: CreatedThread, b: CreatedThread): number {
  return toEpochMs(a.created_at) - toEpochMs(b.created_at) || compareStrings(a.thread_id, b.thread_id);
}

/** Code-unit order, independent of the runtime's locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function inCreationOrder<T extends CreatedThread>(threads: readonly T[]): T[] {
  // Each created_at is parsed once, not once per comparison.
  const sorted = threads
    .map((thread) => ({ thread, createdMs: toEpochMs(thread.created_at) }))
    .sort((a, b) => a.createdMs - b.createdMs || compareStrings(a.thread.thread_id, b.thread.thread_id))
    .map((entry) => entry.thread);
  const byId = new Map(sorted.map((thread) => [thread.thread_id, thread]));
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const ordered: T[] = [];
  const place = (thread: T): void => {
    if (placed.has(thread.thread_id) || visiting.has(thread.thread_id)) return;
    visiting.add(thread.thread_id);
    const parent = thread.parent_thread_id === null ? undefined : byId.get(thread.parent_thread_id);
    if (parent !== undefined) place(parent);
    visiting.delete(thread.thread_id);
    placed.add(thread.thread_id);
    ordered.push(thread);
  };
  for (const thread of sorted) place(thread);
  return ordered;
}
