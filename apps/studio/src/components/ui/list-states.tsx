import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';

/** A list still being read. */
export function LoadingNote() {
  return (
    <p className="text-sm text-muted-foreground">
      <Loader2 aria-hidden className="mr-1 inline size-4 animate-spin" /> Loading…
    </p>
  );
}

/** A list with nothing in it yet, and what to do about it. */
export function EmptyNote({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground" data-testid={testId}>
      {children}
    </p>
  );
}
