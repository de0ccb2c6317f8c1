'use client';
import { useCallback, useEffect, useRef } from 'react';
import { cursorApi } from '@/lib/api/cursor';

/**
 * Records each displayed thread as its family's cursor (docs/branching.md, "Siblings: edit and regenerate"), which also marks it viewed:
 * switching to a sibling later lands on the step last viewed in it. Best effort — a thread that is
 * gone simply is not recorded.
 */
export function useRememberCursor(threadId: string | null): void {
  useEffect(() => {
    if (threadId !== null) void cursorApi.put(threadId).catch(() => undefined);
  }, [threadId]);
}

/**
 * Opens a conversation where its family was last viewed (the history menu's way in for a family's
 * root row; a branch row, a link or a sibling switch opens exactly the thread it names). Only the
 * latest request wins; if the cursor cannot be read, the chosen thread opens.
 */
export function useOpenAtCursor(
  openThread: (threadId: string) => void,
): (threadId: string, options?: { exact?: boolean }) => void {
  const latest = useRef(0);
  return useCallback(
    (threadId: string, options?: { exact?: boolean }) => {
      const request = ++latest.current;
      if (options?.exact) {
        openThread(threadId);
        return;
      }
      void cursorApi
        .get(threadId)
        .catch(() => threadId)
        .then((target) => {
          if (request === latest.current) openThread(target);
        });
    },
    [openThread],
  );
}
