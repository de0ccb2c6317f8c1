// Re-reads of a query that events ask for, coalesced: a long reply makes hundreds of tool writes,
// each announced twice (the turn's `tool` event and the family's `workspace_changed`). Re-reading
// on each one — and cancelling the read in flight to start another — is a loop of aborted requests
// that takes the browser's few connections from the reply's own stream. Here a burst of asks is one
// read, at most one start per interval, never cancelled: a read that began before the last ask is
// followed by one more once it lands, so the last state is always read.
// A read asked for while this tab's own edit of the same data is in flight is left to that edit: a
// read that started before the edit was stored would put back what it is changing (a star, a ticked
// box flipping back for a moment), and the edit re-reads once it settles.
import type { MutationKey, QueryClient, QueryKey } from '@tanstack/react-query';

/** At most this often per query: two reads a second. */
export const REREAD_INTERVAL_MS = 500;

interface KeyState {
  timer: ReturnType<typeof setTimeout> | null;
  lastStart: number;
  heldBy: MutationKey | undefined;
}

export interface AskOptions {
  /** The tab's edits of this data: while one is in flight the read is dropped (the edit re-reads when it settles). */
  heldBy?: MutationKey;
}

export interface RereadScheduler {
  /** Asks for a fresh read of `queryKey` soon (coalesced with other asks for it). */
  ask(queryKey: QueryKey, options?: AskOptions): void;
}

export function createRereadScheduler(
  queryClient: QueryClient,
  options: { intervalMs?: number; now?: () => number } = {},
): RereadScheduler {
  const interval = options.intervalMs ?? REREAD_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const states = new Map<string, KeyState>();

  const run = (queryKey: QueryKey, state: KeyState) => {
    state.timer = null;
    // Checked when the read would start, not when it was asked for: an edit may have begun since.
    if (state.heldBy !== undefined && queryClient.isMutating({ mutationKey: state.heldBy }) > 0) return;
    // A read in flight is left to land; the ask is served by one more read after it.
    if (queryClient.isFetching({ queryKey }) > 0) {
      state.timer = setTimeout(() => run(queryKey, state), interval);
      return;
    }
    state.lastStart = now();
    void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
  };

  return {
    ask(queryKey, options = {}) {
      const id = JSON.stringify(queryKey);
      let state = states.get(id);
      if (!state) {
        state = { timer: null, lastStart: Number.NEGATIVE_INFINITY, heldBy: undefined };
        states.set(id, state);
      }
      state.heldBy = options.heldBy;
      if (state.timer !== null) return;
      const wait = Math.max(0, state.lastStart + interval - now());
      const scheduled = state;
      state.timer = setTimeout(() => run(queryKey, scheduled), wait);
    },
  };
}

const schedulers = new WeakMap<QueryClient, RereadScheduler>();

/** The page's one scheduler for its query client (the turn runner and the family stream share it). */
export function rereadScheduler(queryClient: QueryClient): RereadScheduler {
  let scheduler = schedulers.get(queryClient);
  if (!scheduler) {
    scheduler = createRereadScheduler(queryClient);
    schedulers.set(queryClient, scheduler);
  }
  return scheduler;
}
