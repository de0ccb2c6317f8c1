'use client';
import type { PathRefInput } from '@trellis/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queryKeys } from '@/lib/api/query-keys';
import type { TurnStore } from '@/lib/turns/turn-store';
import { invalidateFamilyGraphs } from './use-family-graph';

export interface StartOnBranch {
  /** A branch was just made: re-read the history and the family graph, and show the branch. */
  openBranch: (branchId: string) => void;
  /** The same, then send `content` there as an ordinary turn (an edit, a send from a restored step). */
  startOnBranch: (branchId: string, content: string, refs?: readonly PathRefInput[]) => void;
}

/** The one way a new branch comes on screen, shared by edit, regenerate and a preview's first send. */
export function useStartOnBranch(turns: TurnStore, openThread: (threadId: string) => void): StartOnBranch {
  const queryClient = useQueryClient();
  const openBranch = useCallback(
    (branchId: string) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
      void invalidateFamilyGraphs(queryClient);
      openThread(branchId);
    },
    [queryClient, openThread],
  );
  const startOnBranch = useCallback(
    (branchId: string, content: string, refs: readonly PathRefInput[] = []) => {
      openBranch(branchId);
      void turns.start(branchId, content, refs);
    },
    [openBranch, turns],
  );
  return { openBranch, startOnBranch };
}
