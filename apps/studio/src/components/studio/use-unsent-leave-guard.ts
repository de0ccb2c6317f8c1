'use client';
import { useEffect } from 'react';
import { usePendingSaves } from '@/components/workspace/pending-saves';
import { unsentText } from '@/lib/unsent-text';
import type { DisplayedView } from '@/lib/view-url';
import type { PopGuard } from './use-displayed-view';
import type { StepPreview } from './use-step-preview';
import { useUnsentText } from './use-unsent-text';

/**
 * Every way out of unsent text asks first (lib/unsent-text.ts, answered in unsent-text-dialog.tsx):
 * the history, "new", the trajectory's steps and paths, a checkpoint, a sibling switch, back and
 * forward, and a reload or a closed tab (the browser's own prompt). Unsent text is an edited message,
 * a draft in a restored view, and a restored step's edited workspace — a restored step branches only
 * when a message is sent from it, so its edits live nowhere else. Returns the guard the studio's
 * navigations go through; with nothing unsent they go at once.
 */
export function useUnsentLeaveGuard(
  preview: StepPreview | null,
  navigate: (next: DisplayedView) => void,
  setPopGuard: (guard: PopGuard | null) => void,
): (leave: () => void) => void {
  const saves = usePendingSaves();
  // The preview's baseline differs, or the document editor holds text it has not handed over yet
  // (the only pending save a preview can have: its edits are local).
  useUnsentText({
    what: 'your edits to the restored step’s workspace',
    hasUnsent: () => preview !== null && (preview.isEdited || saves.getCount() > 0),
  });

  // Back and forward.
  useEffect(() => {
    setPopGuard((next) => {
      if (!unsentText.hasUnsent()) return false;
      unsentText.guard(() => navigate(next));
      return true;
    });
    return () => setPopGuard(null);
  }, [setPopGuard, navigate]);

  return unsentText.guard;
}
