'use client';
import type { Replay } from '@trellis/domain';
import { ChevronLeft, ChevronRight, GitBranchPlus, Pause, Play, X } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { actorName } from './replay-change';

export interface ReplayBarProps {
  seq: number;
  data: Replay | undefined;
  isPlaying: boolean;
  onGoTo: (seq: number) => void;
  onTogglePlay: () => void;
  onClose: () => void;
  onContinue: () => void;
  /** What the continue button says (a shared link opens the step instead of branching from it). */
  continueLabel?: string;
}

/**
 * The buttons at either end stay focusable (`aria-disabled`, never `disabled`): reaching the last
 * change must not drop the keyboard out of the bar.
 *
 * Play, pause, one change back or forward and a slider over every change of the path. While focus is
 * anywhere in the bar, ← / → move one change and Home / End go to the first / last (the slider
 * answers those keys itself).
 */
export function ReplayBar({
  seq,
  data,
  isPlaying,
  onGoTo,
  onTogglePlay,
  onClose,
  onContinue,
  continueLabel = 'Continue from here',
}: ReplayBarProps) {
  const total = data?.total ?? seq;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const next =
      event.key === 'ArrowLeft'
        ? seq - 1
        : event.key === 'ArrowRight'
          ? seq + 1
          : event.key === 'Home'
            ? 1
            : event.key === 'End'
              ? total
              : null;
    if (next === null) return;
    event.preventDefault();
    onGoTo(next);
  };
  const valueText = data
    ? `change ${data.seq} of ${data.total}: step ${data.step.label}, ${actorName(data.change.actor)} ${data.diff.summary}`
    : `change ${seq}`;
  return (
    <div
      role="toolbar"
      aria-label="Replay of this path"
      data-testid="replay-bar"
      onKeyDown={onKeyDown}
      className="flex shrink-0 flex-col gap-1.5 border-b bg-muted/40 px-3 py-2"
    >
      <div className="flex items-center gap-1">
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label="Previous change"
          className="aria-disabled:opacity-50"
          data-testid="replay-back"
          aria-disabled={seq <= 1}
          onClick={() => onGoTo(seq - 1)}
        >
          <ChevronLeft />
        </Button>
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label={isPlaying ? 'Pause' : 'Play'}
          aria-pressed={isPlaying}
          data-testid="replay-play"
          disabled={!data}
          onClick={onTogglePlay}
        >
          {isPlaying ? <Pause /> : <Play />}
        </Button>
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label="Next change"
          className="aria-disabled:opacity-50"
          data-testid="replay-forward"
          aria-disabled={!data || seq >= total}
          onClick={() => onGoTo(seq + 1)}
        >
          <ChevronRight />
        </Button>
        <span
          className="ml-1 truncate whitespace-nowrap text-xs tabular-nums text-muted-foreground"
          data-testid="replay-position"
          aria-live="polite"
        >
          <span className="sr-only">Change </span>
          {data ? `${seq} / ${total} · step ${data.step.label}` : `${seq}`}
        </span>
        <span className="flex-1" />
        <Button
          size="sm"
          variant="outline"
          data-testid="replay-continue"
          disabled={!data}
          onClick={onContinue}
        >
          <GitBranchPlus /> {continueLabel}
        </Button>
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label="Close the replay"
          data-testid="replay-close"
          onClick={onClose}
        >
          <X />
        </Button>
      </div>
      <input
        type="range"
        min={1}
        max={Math.max(1, total)}
        step={1}
        value={seq}
        aria-label="Change of the path"
        aria-valuetext={valueText}
        data-testid="replay-slider"
        disabled={!data}
        onChange={(event) => onGoTo(Number(event.target.value))}
        className="w-full accent-[var(--brand)]"
      />
    </div>
  );
}
