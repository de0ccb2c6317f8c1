'use client';
import type { Replay } from '@trellis/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { focusComposerSoon } from '@/components/chat/focus-composer';
import { replayApi } from '@/lib/api/replay';
import type { DisplayedView } from '@/lib/view-url';

/** Time each change stays on screen while the replay plays. */
export const PLAY_INTERVAL_MS = 900;

export interface ReplayController {
  /** The replayed change (path-wide seq); null when no replay is open. */
  seq: number | null;
  /** The replayed change, its step and the workspace after it; the previous one while the next loads. */
  data: Replay | undefined;
  isFetching: boolean;
  error: unknown;
  isPlaying: boolean;
  /** Opens the replay of the displayed path at its first change. */
  open: () => void;
  close: () => void;
  goTo: (seq: number) => void;
  togglePlay: () => void;
  /** Restores the replayed step (the continue-from flow): a message sent from it makes a branch. */
  continueFromHere: () => void;
}

/**
 * The replay of the displayed path: its position lives in the URL (`?replay=n`), so a
 * reload or a shared link lands on the same change; moving along it replaces the history entry
 * instead of stacking one per change. Replay only reads: nothing here writes to the workspace.
 */
export function useReplay(
  view: DisplayedView,
  navigate: (next: DisplayedView, options?: { replace?: boolean }) => void,
  guard: (leave: () => void) => void,
): ReplayController {
  const threadId = view.threadId;
  const seq = threadId !== null && view.step === null ? (view.replay ?? null) : null;
  const query = useQuery({
    queryKey: ['thread', threadId, 'replay', seq],
    queryFn: ({ signal }) => replayApi.get(threadId!, seq!, signal),
    enabled: threadId !== null && seq !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const data = seq === null ? undefined : query.data;
  const total = data?.total ?? 0;
  const [isPlaying, setPlaying] = useState(false);

  const goTo = useCallback(
    (next: number) => {
      if (threadId === null || seq === null) return;
      const clamped = Math.min(Math.max(1, next), Math.max(1, total));
      if (clamped !== seq) navigate({ threadId, step: null, replay: clamped }, { replace: true });
    },
    [navigate, threadId, seq, total],
  );
  const open = useCallback(() => {
    if (threadId !== null) guard(() => navigate({ threadId, step: null, replay: 1 }));
  }, [guard, navigate, threadId]);
  const close = useCallback(() => {
    setPlaying(false);
    if (threadId !== null) navigate({ threadId, step: null });
  }, [navigate, threadId]);
  const continueFromHere = useCallback(() => {
    setPlaying(false);
    if (threadId !== null && data) {
      navigate({ threadId, step: data.step.turn });
      focusComposerSoon();
    }
  }, [navigate, threadId, data]);
  const togglePlay = useCallback(() => {
    // Play from the last change starts over from the first.
    if (!isPlaying && seq !== null && total > 0 && seq >= total) goTo(1);
    setPlaying(!isPlaying);
  }, [goTo, isPlaying, seq, total]);

  const isLoaded = data !== undefined && data.seq === seq && !query.isFetching;
  usePlayTimer({ isPlaying, setPlaying, seq, total, isLoaded, goTo });

  return {
    seq,
    data,
    isFetching: query.isFetching,
    error: query.error,
    isPlaying,
    open,
    close,
    goTo,
    togglePlay,
    continueFromHere,
  };
}

/**
 * Playing moves one change per interval once the current one has loaded, and stops at the last; a
 * closed replay (`seq` null) stops playing.
 */
export function usePlayTimer({
  isPlaying,
  setPlaying,
  seq,
  total,
  isLoaded,
  goTo,
}: {
  isPlaying: boolean;
  setPlaying: (isPlaying: boolean) => void;
  seq: number | null;
  total: number;
  isLoaded: boolean;
  goTo: (seq: number) => void;
}): void {
  useEffect(() => {
    if (!isPlaying || seq === null || !isLoaded) return;
    if (seq >= total) {
      setPlaying(false);
      return;
    }
    const timer = window.setTimeout(() => goTo(seq + 1), PLAY_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [isPlaying, isLoaded, seq, total, goTo, setPlaying]);
  useEffect(() => {
    if (seq === null) setPlaying(false);
  }, [seq, setPlaying]);
}
