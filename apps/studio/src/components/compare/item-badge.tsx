import type { ItemStatus } from '@trellis/domain';
import { cn } from '@/lib/cn';

const STATUS_STYLE: Record<ItemStatus, string> = {
  added: 'bg-emerald-100 text-emerald-900',
  removed: 'bg-rose-100 text-rose-900',
  edited: 'bg-amber-100 text-amber-900',
  unchanged: 'bg-muted text-muted-foreground',
};

export function Badge({ children, tone }: { children: string; tone: ItemStatus }) {
  return (
    <span data-testid="compare-badge" className={cn('rounded px-1.5 py-0.5 text-[11px] font-medium', STATUS_STYLE[tone])}>
      {children}
    </span>
  );
}

/** added / removed / edited, and "lock changed" when a preference's lock is among the changes. */
export function badges(status: ItemStatus, changes: readonly string[]): { text: string; tone: ItemStatus }[] {
  if (status !== 'edited') return [{ text: status, tone: status }];
  return [{ text: 'edited', tone: 'edited' }, ...(changes.includes('locked') ? [{ text: 'lock changed', tone: 'edited' as const }] : [])];
}
