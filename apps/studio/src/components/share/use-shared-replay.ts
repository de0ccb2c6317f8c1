'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { sharedApi } from '@/lib/api/shares';
import { usePlayTimer, type ReplayController } from '@/components/replay/use-replay';

/** The replay of a shared path: the studio's replay controls over the link's own replay endpoint. */
export function useSharedReplay(token: string, thread: string | undefined, onOpenStep: (turn: number) => void): ReplayController {
  const [seq, setSeq] = useState<number | null>(null);
  const [isPlaying, setPlaying] = useState(false);
  const query = useQuery({
    queryKey: ['shared', token, 'replay', thread ?? null, seq],
    queryFn: ({ signal }) => sharedApi.replay(token, thread, seq!, signal),
    enabled: seq !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const data = seq === null ? undefined : query.data;
  const total = data?.total ?? 0;
  const goTo = useCallback(
    (next: number) => setSeq((current) => (current === null ? null : Math.min(Math.max(1, next), Math.max(1, total)))),
    [total],
  );
  usePlayTimer({ isPlaying, setPlaying, seq, total, isLoaded: data !== undefined && data.seq === seq && !query.isFetching, goTo });
  return {
    seq,
    data,
    isFetching: query.isFetching,
    error: query.error,
    isPlaying,
    open: () => setSeq(1),
    close: () => {
      setPlaying(false);
      setSeq(null);
    },
    goTo,
    togglePlay: () => {
      if (!isPlaying && seq !== null && total > 0 && seq >= total) goTo(1);
      setPlaying(!isPlaying);
    },
    continueFromHere: () => {
      if (!data) return;
      setPlaying(false);
      setSeq(null);
      onOpenStep(data.step.turn);
    },
  };
}
