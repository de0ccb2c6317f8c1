'use client';
import type { PathRefInput } from '@trellis/domain';
import { useCallback, useRef } from 'react';
import { toWorkspaceOverride } from '@/components/workspace/local-workspace';
import { useToast } from '@/components/ui/toast';
import { branchesApi } from '@/lib/api/branches';
import { errorMessage } from '@/lib/api/http';
import type { TurnStore } from '@/lib/turns/turn-store';
import { usePendingSaves } from '@/components/workspace/pending-saves';
import { useStartOnBranch } from './use-start-on-branch';
import type { StepPreview } from './use-step-preview';

/**
 * The first send from a previewed step (docs/branching.md, "The restore rule"): branch at the
 * step, switch to the new thread, send the message there. The original path is never touched.
 *
 * The branch forks the thread that OWNS step k (turns ≤ a branch point belong to an ancestor) and is
 * seeded with the owner's state after k. The displayed workspace goes along as the override when it
 * was edited — and also when the preview was read along another thread of the lineage, whose state
 * after k may differ from the owner's (manual edits made on one path before its next turn): what the
 * preview shows is what the branch gets.
 */
export function usePreviewSend(
  preview: StepPreview | null,
  turns: TurnStore,
  openThread: (threadId: string) => void,
): (content: string, refs?: readonly PathRefInput[]) => Promise<boolean> {
  const toast = useToast();
  const { startOnBranch } = useStartOnBranch(turns, openThread);
  const saves = usePendingSaves();
  const isBranching = useRef(false);

  return useCallback(
    async (content: string, refs: readonly PathRefInput[] = []) => {
      if (preview === null) return false;
      if (isBranching.current) {
        toast.info('Creating the branch…');
        return false;
      }
      isBranching.current = true;
      try {
        // The document editor hands over what was typed; the preview's other edits are already local.
        await saves.flushAll();
        const shown = preview.read();
        if (shown === undefined) {
          toast.info('The step is still loading.');
          return false;
        }
        const needsOverride = shown.isEdited || preview.ownerThreadId !== preview.threadId;
        const created = await branchesApi.create(preview.ownerThreadId, {
          from_turn: preview.step,
          reason: 'continue',
          ...(needsOverride ? { workspace: toWorkspaceOverride(shown.workspace) } : {}),
        });
        startOnBranch(created.thread_id, content, refs);
        return true;
      } catch (error) {
        toast.error(`Could not branch from this step: ${errorMessage(error)}`);
        return false;
      } finally {
        isBranching.current = false;
      }
    },
    [preview, saves, toast, startOnBranch],
  );
}
