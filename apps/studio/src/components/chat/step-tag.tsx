'use client';
import { GitBranch, History } from 'lucide-react';
import { useTrajectoryLinks } from './trajectory-links';

/**
 * Beside a user message's timestamp: its step label on the displayed path (`Step 3.1`, the same
 * label as its card in the trajectory), "Replaying" while the replayed change belongs to it, and a
 * chip for each other path that continues from it.
 */
export function StepTag({ turn }: { turn: number }) {
  const links = useTrajectoryLinks();
  const step = links?.steps.get(turn);
  if (!links || !step) return null;
  return (
    <span className="ml-1 flex shrink-0 items-center gap-1 whitespace-nowrap" data-testid="step-tag">
      <span
        data-testid="step-label"
        data-label={step.label}
        title="This message's step in the trajectory"
        className="font-mono text-[11px] text-muted-foreground"
      >
        Step {step.label}
      </span>
      {links.replayTurn === turn && (
        <span
          data-testid="replay-marker"
          title="The replayed change belongs to this step"
          className="inline-flex items-center gap-0.5 rounded-full bg-amber-100 px-1.5 text-[10px] font-semibold leading-4 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
        >
          <History aria-hidden className="size-2.5" />
          Replaying
        </span>
      )}
      {step.alternatives.map((alternative) => (
        <button
          key={alternative.thread_id}
          type="button"
          data-testid="offshoot-chip"
          data-thread-id={alternative.thread_id}
          data-label={alternative.label}
          title={`Open the path that continues here as step ${alternative.label} (${alternative.title})`}
          aria-label={`Open path ${alternative.label}`}
          onClick={() => links.openPath(alternative.thread_id)}
          className="inline-flex items-center gap-0.5 rounded-full border px-1.5 font-mono text-[10px] leading-4 text-muted-foreground hover:border-brand/50 hover:bg-brand-soft hover:text-brand focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <GitBranch aria-hidden className="size-2.5" />
          {alternative.label}
        </button>
      ))}
    </span>
  );
}
