'use client';
import { CircleAlert, Wrench } from 'lucide-react';
import { memo, useState } from 'react';
import { cn } from '@/lib/cn';

export interface ToolChipProps {
  name: string;
  args: Record<string, unknown>;
  result?: string;
  isError?: boolean;
}

/** A tool call: its name and result at a glance; the arguments on click. */
export const ToolChip = memo(function ToolChip({ name, args, result, isError = false }: ToolChipProps) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <div className={cn('max-w-full', isOpen && 'w-full')}>
      <button
        type="button"
        data-testid="tool-chip"
        data-tool={name}
        data-error={isError}
        aria-expanded={isOpen}
        onClick={() => setIsOpen((o) => !o)}
        className={cn(
          'inline-flex max-w-full items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs transition-colors',
          isError
            ? 'border-destructive/40 bg-destructive/5 text-destructive'
            : 'bg-secondary text-secondary-foreground hover:bg-accent',
        )}
      >
        {isError ? (
          <CircleAlert aria-hidden className="size-3 shrink-0" />
        ) : (
          <Wrench aria-hidden className="size-3 shrink-0" />
        )}
        <span className="shrink-0 font-mono font-medium" data-testid="tool-name">
          {name}
        </span>
        {result !== undefined && (
          <span className="truncate text-muted-foreground" data-testid="tool-result">
            · {result}
          </span>
        )}
      </button>
      {isOpen && (
        <div className="mt-1 space-y-1 rounded-md border bg-muted/50 p-2 text-xs" data-testid="tool-details">
          <pre className="whitespace-pre-wrap break-words font-mono">{JSON.stringify(args, null, 2)}</pre>
          {result !== undefined && <p className="whitespace-pre-wrap break-words">{result}</p>}
        </div>
      )}
    </div>
  );
});
