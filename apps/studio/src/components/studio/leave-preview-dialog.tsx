'use client';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { LeaveConfirmation } from './use-preview-leave-guard';

/** Asked before a navigation would discard a restored step's unsent edits. */
export function LeavePreviewDialog({ leave }: { leave: LeaveConfirmation }) {
  return (
    <ConfirmDialog
      open={leave.isOpen}
      onOpenChange={(open) => !open && leave.cancel()}
      title="Discard your edits?"
      description={
        <>
          You edited the workspace of restored step {leave.stepLabel}. Nothing is saved until you send a
          message from there; leaving now discards the edits.
        </>
      }
      confirmLabel="Discard edits"
      destructive
      onConfirm={leave.confirm}
    />
  );
}
