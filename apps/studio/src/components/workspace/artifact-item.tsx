'use client';
import type { Artifact } from '@trellis/domain';
import { ChevronRight } from 'lucide-react';
import { memo, useId, useState } from 'react';
import { Markdown } from '@/components/ui/markdown';
import { cn } from '@/lib/cn';

/** An artifact: its number in the family, kind, title and the turn that made it; the content expands in place. */
export const ArtifactItem = memo(function ArtifactItem({ artifact }: { artifact: Artifact }) {
  const [isOpen, setIsOpen] = useState(false);
  const contentId = useId();
  return (
    <li data-testid="artifact-item" data-artifact-id={artifact.id} className="rounded-md border bg-card">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={contentId}
        data-testid="artifact-toggle"
        onClick={() => setIsOpen((o) => !o)}
        className="flex w-full items-center gap-2 px-2.5 py-2 text-left text-sm hover:bg-muted/60"
      >
        <ChevronRight
          aria-hidden
          className={cn('size-4 shrink-0 text-muted-foreground transition-transform', isOpen && 'rotate-90')}
        />
        <span className="shrink-0 font-mono text-xs tabular-nums text-muted-foreground" data-testid="artifact-number">
          {artifact.number}.
        </span>
        <span
          className="shrink-0 rounded bg-secondary px-1.5 py-0.5 text-[11px] font-medium uppercase tracking-wide text-secondary-foreground"
          data-testid="artifact-kind"
        >
          {artifact.kind}
        </span>
        <span className="min-w-0 flex-1 truncate font-medium" data-testid="artifact-title">
          {artifact.title}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground" data-testid="artifact-turn">
          step {artifact.turn_index}
        </span>
      </button>
      {isOpen && (
        <div id={contentId} className="border-t px-3 py-2 text-sm" data-testid="artifact-content">
          {artifact.content.trim() ? (
            <Markdown source={artifact.content} />
          ) : (
            <p className="text-muted-foreground">No content.</p>
          )}
        </div>
      )}
    </li>
  );
});
