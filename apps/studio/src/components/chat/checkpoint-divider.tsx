'use client';
import { History } from 'lucide-react';
import { useTrajectoryLinks } from './trajectory-links';

/**
 * Between two turns: the workspace as it stood after `turn` is a saved checkpoint; a click restores
 * the studio to it (a preview — nothing is created until a message is sent from there). It shows
 * when the pointer is over the gap between the turns or the keyboard focuses it, so a long chat is
 * not striped with one between every turn; it stays in the tab order.
 */
export function CheckpointDivider({ turn }: { turn: number }) {
  const links = useTrajectoryLinks();
  if (!links) return null;
  const label = links.steps.get(turn)?.label ?? String(turn);
  return (
    <div
      className="group -my-2 flex items-center gap-2 opacity-0 transition-opacity focus-within:opacity-100 hover:opacity-100"
      role="presentation"
      data-testid="checkpoint-gap"
    >
      <span aria-hidden className="h-px flex-1 bg-border group-hover:bg-brand/40" />
      <button
        type="button"
        data-testid="checkpoint-divider"
        data-turn={turn}
        title={`Restore the studio to step ${label}`}
        onClick={() => links.restoreStep(turn)}
        className="inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] text-muted-foreground hover:bg-brand-soft hover:text-brand focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <History aria-hidden className="size-3" />
        Saved checkpoint · Click to restore
      </button>
      <span aria-hidden className="h-px flex-1 bg-border group-hover:bg-brand/40" />
    </div>
  );
}
