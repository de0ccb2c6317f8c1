'use client';
import type { Message } from '@trellis/domain';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { actionButton } from './message-actions';

export interface AttemptsPage {
  /** 0-based position of the shown attempt among its turn's attempts (oldest first). */
  index: number;
  count: number;
  select: (index: number) => void;
}

/**
 * `‹ i/n ›` through the attempts at one reply: a retry answers the same
 * step again, and the failed or stopped attempts before it stay readable as earlier pages. Paging
 * only changes what this reply shows; nothing is opened or sent. (Regenerated alternatives are
 * siblings — other paths — and page with the SiblingSwitcher instead.)
 */
export function AttemptsPager({ turn, page }: { turn: number; page: AttemptsPage }) {
  const { index, count, select } = page;
  return (
    <div className="flex items-center text-xs text-muted-foreground" data-testid="attempts-pager" data-turn={turn}>
      <Button
        variant="ghost"
        size="icon-sm"
        className={actionButton}
        aria-label={`Earlier attempt at reply ${turn}`}
        data-testid="attempt-prev"
        disabled={index === 0}
        onClick={() => select(index - 1)}
      >
        <ChevronLeft />
      </Button>
      <span className="tabular-nums" data-testid="attempt-position" aria-live="polite">
        <span className="sr-only">Attempt </span>
        {index + 1}/{count}
      </span>
      <Button
        variant="ghost"
        size="icon-sm"
        className={actionButton}
        aria-label={`Later attempt at reply ${turn}`}
        data-testid="attempt-next"
        disabled={index === count - 1}
        onClick={() => select(index + 1)}
      >
        <ChevronRight />
      </Button>
    </div>
  );
}

/** The assistant attempts of each turn that has more than one, keyed `${thread_id}:${turn_index}`, oldest first. */
export function attemptsByTurn(messages: readonly Message[]): Map<string, Message[]> {
  const byTurn = new Map<string, Message[]>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const key = `${m.thread_id}:${m.turn_index}`;
    byTurn.set(key, [...(byTurn.get(key) ?? []), m]);
  }
  for (const [key, list] of byTurn) if (list.length < 2) byTurn.delete(key);
  return byTurn;
}
