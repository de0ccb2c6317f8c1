'use client';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeftToLine, ArrowRightToLine } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { compareApi, pathHref, stepHref } from '@/lib/api/compare';
import { errorMessage } from '@/lib/api/http';
import { applyCandidates, itemsOnto, type ApplySide } from './apply-candidates';
import { ApplyDialog } from './apply-dialog';
import { ComparisonBody } from './comparison-body';

export interface CompareViewProps {
  threadId: string;
  a: string;
  b: string;
  /** Opened to bring B's items into A ("Bring into the current path…"): "Apply to A" leads. */
  into?: ApplySide;
}

/**
 * The compare view: fork point, the document diff, and the structured lists with badges. Each
 * changed section and item has a checkbox; "Apply to A" brings the ticked items from B onto A's path
 * (and "Apply to B" the other way) after a dry run in a dialog.
 */
export function CompareView({ threadId, a, b, into }: CompareViewProps) {
  const query = useQuery({
    queryKey: ['compare', threadId, a, b],
    queryFn: ({ signal }) => compareApi.compare(threadId, a, b, signal),
  });
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [applying, setApplying] = useState<ApplySide | null>(null);
  const candidates = useMemo(() => (query.data ? applyCandidates(query.data) : null), [query.data]);
  if (query.isPending) return <p className="p-6 text-sm text-muted-foreground">Comparing…</p>;
  if (query.isError || candidates === null) {
    return (
      <p role="alert" className="p-6 text-sm text-destructive">
        {errorMessage(query.error)}
      </p>
    );
  }
  const c = query.data;
  const toggle = (id: string) =>
    setTicked((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const onto = { a: itemsOnto(candidates, ticked, 'a'), b: itemsOnto(candidates, ticked, 'b') };
  const node = { a: c.a, b: c.b };
  const other = (side: ApplySide): ApplySide => (side === 'a' ? 'b' : 'a');
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 p-4 sm:p-6" data-testid="compare-view">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-lg font-semibold">
          Step <span data-testid="compare-label-a">{c.a.label}</span> vs step{' '}
          <span data-testid="compare-label-b">{c.b.label}</span>
        </h1>
        <span className="text-sm text-muted-foreground" data-testid="compare-fork">
          {c.fork ? `Paths share everything up to step ${c.fork.label}` : 'No shared step'}
        </span>
        <nav className="flex flex-wrap gap-2 text-sm sm:ml-auto" aria-label="Open a side">
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={pathHref(c.a.node_id)} data-testid="compare-open-a">
            Open A ({c.a.label})
          </Link>
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={pathHref(c.b.node_id)} data-testid="compare-open-b">
            Open B ({c.b.label})
          </Link>
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={stepHref(c.a.node_id)} data-testid="compare-continue-a">
            Continue from A
          </Link>
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={stepHref(c.b.node_id)} data-testid="compare-continue-b">
            Continue from B
          </Link>
        </nav>
      </header>
      {into !== undefined && (
        <p className="rounded-md border border-brand/40 bg-brand/5 px-3 py-2 text-sm" data-testid="apply-hint">
          Tick what to bring from step {node[other(into)].label}, then “Apply to {into.toUpperCase()}”: it lands on
          your current path as a new step.
        </p>
      )}

      <ComparisonBody comparison={c} names={{ a: 'A', b: 'B' }} selection={{ candidates, ticked, onToggle: toggle }} />

      <section
        aria-label="Apply ticked items"
        data-testid="apply-bar"
        className="sticky bottom-0 -mx-4 flex flex-wrap items-center gap-2 border-t bg-background/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6"
      >
        <p className="mr-auto text-sm text-muted-foreground" aria-live="polite" data-testid="apply-ticked">
          {ticked.size === 0
            ? 'Tick sections and items to bring from one side to the other.'
            : `${ticked.size} ticked`}
        </p>
        {(['a', 'b'] as const).map((side) => {
          const count = onto[side].items.length;
          const isLeading = into === side;
          return (
            <Button
              key={side}
              size="sm"
              variant={isLeading ? 'default' : 'outline'}
              data-testid={`apply-to-${side}`}
              disabled={count === 0}
              title={`Bring the ticked items of ${other(side).toUpperCase()} (step ${node[other(side)].label}) onto ${side.toUpperCase()}'s path`}
              onClick={() => setApplying(side)}
              className={isLeading ? 'bg-brand text-white hover:bg-brand/90' : undefined}
            >
              {side === 'a' ? <ArrowLeftToLine aria-hidden /> : <ArrowRightToLine aria-hidden />}
              Apply to {side.toUpperCase()}
              {count > 0 && <span className="tabular-nums">({count})</span>}
            </Button>
          );
        })}
      </section>

      {applying !== null && (
        <ApplyDialog
          open
          onOpenChange={(open) => {
            if (!open) setApplying(null);
          }}
          side={applying}
          target={node[applying]}
          source={node[other(applying)]}
          items={onto[applying].items}
          unavailable={onto[applying].unavailable}
        />
      )}
    </main>
  );
}
