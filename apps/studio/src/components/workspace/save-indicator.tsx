import { Check, CircleAlert, LoaderCircle } from 'lucide-react';
import type { SaveState } from './use-autosave';

const LABELS: Record<SaveState, string> = {
  saved: 'Saved',
  unsaved: 'Unsaved',
  saving: 'Saving…',
  error: 'Not saved',
  conflict: 'Not saved: changed elsewhere',
};

export function SaveIndicator({
  state,
  testId,
  onRetry,
}: {
  state: SaveState;
  testId?: string;
  onRetry?: () => void;
}) {
  return (
    <span
      data-testid={testId}
      data-state={state}
      aria-live="polite"
      className="inline-flex items-center gap-1 text-xs text-muted-foreground"
    >
      {state === 'saving' && <LoaderCircle aria-hidden className="size-3 animate-spin" />}
      {state === 'saved' && <Check aria-hidden className="size-3" />}
      {(state === 'error' || state === 'conflict') && <CircleAlert aria-hidden className="size-3 text-destructive" />}
      <span className={state === 'error' || state === 'conflict' ? 'text-destructive' : undefined}>{LABELS[state]}</span>
      {state === 'error' && onRetry && (
        <button type="button" className="underline hover:text-foreground" onClick={onRetry}>
          retry
        </button>
      )}
    </span>
  );
}
