'use client';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { actionButton, useMessageActions } from './message-actions';

/**
 * `‹ i/n ›` on the user message of a fork point (seed 001): ← the older sibling, → the newer one;
 * each opens the step last viewed in that sibling (else its latest leaf), and the whole conversation
 * below changes with it. Nothing at a step where nothing diverges.
 */
export function SiblingSwitcher({ turn }: { turn: number }) {
  const actions = useMessageActions();
  const fork = actions?.forks.get(turn);
  if (!actions || !fork) return null;
  const position = fork.index + 1;
  const isSwitching = actions.switchingTurn === turn;
  return (
    <div
      role="group"
      aria-label={`Version ${position} of ${fork.count} of this message`}
      aria-busy={isSwitching}
      className="flex items-center text-xs text-muted-foreground"
      data-testid="sibling-switcher"
    >
      <Button
        variant="ghost"
        size="icon-sm"
        className={actionButton}
        aria-label="Previous version"
        title="Previous version"
        data-testid="sibling-prev"
        disabled={fork.index === 0 || isSwitching}
        onClick={() => actions.switchSibling(turn, -1)}
      >
        <ChevronLeft />
      </Button>
      <span className="min-w-7 text-center tabular-nums" data-testid="sibling-position" aria-live="polite">
        {position}/{fork.count}
      </span>
      <Button
        variant="ghost"
        size="icon-sm"
        className={actionButton}
        aria-label="Next version"
        title="Next version"
        data-testid="sibling-next"
        disabled={fork.index === fork.count - 1 || isSwitching}
        onClick={() => actions.switchSibling(turn, 1)}
      >
        <ChevronRight />
      </Button>
    </div>
  );
}
