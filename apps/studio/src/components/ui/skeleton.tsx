import type * as React from 'react';
import { cn } from '@/lib/cn';

export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}

/** A few grey lines standing in for a list while it loads. */
export function SkeletonList({
  rows = 3,
  className,
  testId,
}: {
  rows?: number;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={cn('space-y-2', className)} data-testid={testId} aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-7" style={{ width: `${90 - ((i * 17) % 35)}%` }} />
      ))}
    </div>
  );
}
