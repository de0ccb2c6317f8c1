'use client';
import type { Comparison } from '@trellis/domain';
import { useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { compareApi, pathHref, stepHref } from '@/lib/api/compare';
import { errorMessage } from '@/lib/api/http';
import { cn } from '@/lib/cn';
import { Badge, badges } from './item-badge';

const DocumentMerge = dynamic(() => import('./document-merge'), { ssr: false });

type Status = Comparison['preferences'][number]['status'];

function useWide(): boolean {
  const [wide, setWide] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(min-width: 1280px)');
    const update = () => setWide(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return wide;
}

/** The compare view: fork point, the document diff, and the structured lists with badges. */
export function CompareView({ threadId, a, b }: { threadId: string; a: string; b: string }) {
  const wide = useWide();
  const query = useQuery({
    queryKey: ['compare', threadId, a, b],
    queryFn: ({ signal }) => compareApi.compare(threadId, a, b, signal),
  });
  if (query.isPending) return <p className="p-6 text-sm text-muted-foreground">Comparing…</p>;
  if (query.isError) {
    return (
      <p role="alert" className="p-6 text-sm text-destructive">
        {errorMessage(query.error)}
      </p>
    );
  }
  const c = query.data;
  const sideA = c.document.hunks.filter((h) => h.op !== 'insert').map((h) => h.text).join('');
  const sideB = c.document.hunks.filter((h) => h.op !== 'delete').map((h) => h.text).join('');
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 p-6" data-testid="compare-view">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-lg font-semibold">
          Step <span data-testid="compare-label-a">{c.a.label}</span> vs step{' '}
          <span data-testid="compare-label-b">{c.b.label}</span>
        </h1>
        <span className="text-sm text-muted-foreground" data-testid="compare-fork">
          {c.fork ? `Paths share everything up to step ${c.fork.label}` : 'No shared step'}
        </span>
        <nav className="ml-auto flex flex-wrap gap-2 text-sm" aria-label="Open a side">
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={pathHref(c.a.node_id)} data-testid="compare-open-a">
            Open A ({c.a.label})
          </Link>
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={pathHref(c.b.node_id)} data-testid="compare-open-b">
            Open B ({c.b.label})
          </Link>
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={stepHref(c.a.node_id)}>
            Continue from A
          </Link>
          <Link className="rounded-md border px-3 py-1.5 hover:bg-accent" href={stepHref(c.b.node_id)}>
            Continue from B
          </Link>
        </nav>
      </header>

      <section aria-labelledby="compare-document-heading" className="flex flex-col gap-2">
        <h2 id="compare-document-heading" className="text-sm font-semibold">
          Document{' '}
          <span className="font-normal text-muted-foreground" data-testid="compare-words">
            +{c.document.words_added} −{c.document.words_removed} words
          </span>
        </h2>
        {c.document.title.changed ? (
          <p className="text-sm">
            Title: <del>{c.document.title.a}</del> → <ins>{c.document.title.b}</ins>
          </p>
        ) : null}
        {c.objective.changed ? (
          <p className="text-sm">
            Objective: <del>{c.objective.a ?? 'none'}</del> → <ins>{c.objective.b ?? 'none'}</ins>
          </p>
        ) : null}
        {c.document.changed ? (
          <DocumentMerge a={sideA} b={sideB} sideBySide={wide} />
        ) : (
          <p className="text-sm text-muted-foreground">The document is the same on both sides.</p>
        )}
      </section>

      <ItemList
        title="Preferences"
        testId="compare-preferences"
        items={c.preferences.map((p) => ({
          key: p.key,
          status: p.status,
          changes: p.changes,
          text: (p.b ?? p.a)!.text,
          detail: [p.a?.locked ? 'A: locked' : null, p.b?.locked ? 'B: locked' : null].filter(Boolean).join(' · '),
        }))}
      />
      <ItemList
        title="Todos"
        testId="compare-todos"
        items={c.todos.map((t) => ({
          key: t.key,
          status: t.status,
          changes: t.changes,
          text: (t.b ?? t.a)!.text,
          detail: [t.a ? `A: ${t.a.done ? 'done' : 'open'}` : null, t.b ? `B: ${t.b.done ? 'done' : 'open'}` : null].filter(Boolean).join(' · '),
        }))}
      />
      <ItemList
        title="Artifacts"
        testId="compare-artifacts"
        items={c.artifacts.map((x) => ({ key: x.key, status: x.status, changes: [], text: (x.b ?? x.a)!.title, detail: (x.b ?? x.a)!.kind }))}
      />
    </main>
  );
}

function ItemList({
  title,
  testId,
  items,
}: {
  title: string;
  testId: string;
  items: { key: string | null; status: Status; changes: readonly string[]; text: string; detail: string }[];
}) {
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">{title}</h2>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">None on either side.</p>
      ) : (
        <ul className="flex flex-col gap-1" data-testid={testId}>
          {items.map((item, i) => (
            <li key={item.key ?? `i${i}`} className="flex items-center gap-2 text-sm" data-status={item.status}>
              {badges(item.status, item.changes).map((b) => (
                <Badge key={b.text} tone={b.tone}>
                  {b.text}
                </Badge>
              ))}
              <span className={cn(item.status === 'removed' && 'line-through')}>{item.text}</span>
              {item.detail ? <span className="text-xs text-muted-foreground">{item.detail}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
