import { cn } from '@/lib/cn';

const TONES: Record<string, string> = {
  draft: 'border-muted-foreground/40 text-muted-foreground',
  open: 'border-emerald-700/50 bg-emerald-50 text-emerald-900',
  closed: 'border-muted-foreground/40 bg-muted text-foreground',
  consented: 'border-muted-foreground/40 text-foreground',
  active: 'border-sky-700/50 bg-sky-50 text-sky-900',
  finished: 'border-emerald-700/50 bg-emerald-50 text-emerald-900',
  timed_out: 'border-amber-700/50 bg-amber-50 text-amber-900',
  withdrawn: 'border-muted-foreground/40 bg-muted text-foreground',
};

/** A study's or a participant's status, in words (colour only repeats them). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      data-testid="status"
      className={cn('inline-flex shrink-0 rounded-full border px-2 py-0.5 text-xs', TONES[status])}
    >
      {status.replace('_', ' ')}
    </span>
  );
}
