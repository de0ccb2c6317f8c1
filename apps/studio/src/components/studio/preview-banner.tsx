'use client';
import { CornerDownLeft, History } from 'lucide-react';
import { Button } from '@/components/ui/button';

export interface PreviewBannerProps {
  stepLabel: string;
  isEdited: boolean;
  onBackToLatest: () => void;
}

/** Above the chat while a past step is restored: what sending does, and the way back. */
export function PreviewBanner({ stepLabel, isEdited, onBackToLatest }: PreviewBannerProps) {
  return (
    <div
      role="status"
      data-testid="preview-banner"
      data-step-label={stepLabel}
      data-edited={isEdited}
      className="flex shrink-0 items-center gap-2 border-b bg-brand-soft/60 px-4 py-1.5 text-xs"
    >
      <History aria-hidden className="size-3.5 shrink-0 text-brand" />
      <p className="min-w-0 flex-1">
        <span className="font-medium">Restored step {stepLabel}.</span>{' '}
        <span className="text-muted-foreground">
          {isEdited ? 'Your edits and your next message start' : 'Your next message starts'} a new branch; this
          path stays as it is.
        </span>
      </p>
      <Button
        size="sm"
        variant="ghost"
        data-testid="preview-back"
        onClick={onBackToLatest}
        className="h-6 shrink-0 px-2 text-xs"
      >
        <CornerDownLeft aria-hidden /> Back to latest
      </Button>
    </div>
  );
}
