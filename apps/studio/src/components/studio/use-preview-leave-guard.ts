'use client';
import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { usePendingSaves } from '@/components/workspace/pending-saves';
import type { DisplayedView } from '@/lib/view-url';
import type { PopGuard } from './use-displayed-view';
import type { StepPreview } from './use-step-preview';

export interface LeaveConfirmation {
  /** A navigation waits for the user: the preview it would discard has edits. */
  isOpen: boolean;
  stepLabel: string;
  confirm: () => void;
  cancel: () => void;
}

export interface PreviewLeaveGuard {
  /** Runs `leave` now, or after a confirmation when the preview on screen holds edits. */
  guard: (leave: () => void) => void;
  /** The open question, for the dialog (its step label is the caller's to add). */
  confirmation: Omit<LeaveConfirmation, 'stepLabel'>;
}

/**
 * Every way out of a restored step with unsent edits asks first, since a restored step branches only
 * when a message is sent from it and its edits live nowhere else: the history, "new", the
 * trajectory's steps and paths, back and forward, and a reload or a closed tab (the browser's own
 * prompt). An unedited preview is left silently.
 */
export function usePreviewLeaveGuard(
  preview: StepPreview | null,
  navigate: (next: DisplayedView) => void,
  setPopGuard: (guard: PopGuard | null) => void,
): PreviewLeaveGuard {
  const saves = usePendingSaves();
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);
  const isEdited = preview !== null && preview.isEdited;

  /**
   * The preview on screen holds edits: its baseline differs, or the document editor holds text it
   * has not handed over yet (the only pending save a preview can have: its edits are local).
   */
  const hasUnsentEdits = useEffectEvent(() => preview !== null && (isEdited || saves.getCount() > 0));

  const guard = useCallback((leave: () => void) => {
    if (hasUnsentEdits()) setPendingLeave(() => leave);
    else leave();
  }, []);

  // Back and forward.
  useEffect(() => {
    setPopGuard((next) => {
      if (!hasUnsentEdits()) return false;
      setPendingLeave(() => () => navigate(next));
      return true;
    });
    return () => setPopGuard(null);
  }, [setPopGuard, navigate]);

  // A reload or a closed tab.
  useEffect(() => {
    if (!isEdited) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isEdited]);

  const confirm = () => {
    const action = pendingLeave;
    setPendingLeave(null);
    action?.();
  };
  const cancel = () => setPendingLeave(null);

  return { guard, confirmation: { isOpen: pendingLeave !== null, confirm, cancel } };
}
