'use client';
import { Clock, RotateCcw, TriangleAlert, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { TurnRun } from '@/lib/turns/turn-store';

export interface TurnNoticeProps {
  run: TurnRun;
  onRetry: () => void;
  onDismiss: () => void;
}

/** What went wrong with the last send, and a way to try again. */
export function TurnNotice({ run, onRetry, onDismiss }: TurnNoticeProps) {
  if (run.phase !== 'failed' || !run.error) return null;
  // A reply the provider failed is stored with its reason: its own notice in the transcript says it.
  if (run.error.code === 'upstream_failed' && run.turnIndex !== null) return null;
  const isBusy = run.error.code === 'turn_in_progress';
  const wasRecorded = run.turnIndex !== null;
  const isRestarting = run.error.code === 'unavailable' && !wasRecorded;
  return (
    <div
      role={isBusy ? 'status' : 'alert'}
      data-testid={isBusy ? 'turn-busy' : 'turn-error'}
      className={
        isBusy
          ? 'flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900'
          : 'flex items-start gap-2 rounded-lg border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive'
      }
    >
      {isBusy ? (
        <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
      ) : (
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      )}
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium">
          {isBusy
            ? 'This conversation is still answering another message.'
            : wasRecorded
              ? 'The reply failed.'
              : isRestarting
                ? 'The studio is restarting — your message was not sent.'
                : 'Your message was not sent.'}
        </p>
        <p className="text-xs opacity-90">
          {isBusy ? 'Perhaps from another tab. Wait until it finishes, then send again.' : run.error.message}
        </p>
        {!wasRecorded && <p className="line-clamp-2 text-xs italic opacity-80">“{run.content}”</p>}
      </div>
      <div className="flex shrink-0 items-center gap-1">
        <Button size="sm" variant="outline" data-testid="retry-turn" onClick={onRetry}>
          <RotateCcw /> {isBusy ? 'Send again' : 'Retry'}
        </Button>
        <button
          type="button"
          aria-label="Dismiss"
          data-testid="dismiss-turn"
          onClick={onDismiss}
          className="rounded p-1 opacity-70 hover:opacity-100"
        >
          <X className="size-4" />
        </button>
      </div>
    </div>
  );
}
