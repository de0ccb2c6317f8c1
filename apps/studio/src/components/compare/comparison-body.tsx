'use client';
import type { Comparison, WorkspaceComparison } from '@trellis/domain';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { stepHref } from '@/lib/api/compare';
import { cn } from '@/lib/cn';
import { documentSides, type ApplyCandidate, type ApplyCandidates, type SectionCandidate } from './apply-candidates';
import { Badge, badges } from './item-badge';

const DocumentMerge = dynamic(() => import('./document-merge'), { ssr: false });

type Status = WorkspaceComparison['preferences'][number]['status'];

/** Ticking items to apply: absent in a read-only comparison (the dry-run dialog). */
export interface ApplySelection {
  readonly candidates: ApplyCandidates;
  readonly ticked: ReadonlySet<string>;
  readonly onToggle: (id: string) => void;
}

export interface ComparisonBodyProps {
  /** A compare's items carry `removed_at` (the step of B's path that removed one); a dry run's do not. */
  comparison: WorkspaceComparison | Comparison;
  /** How the two sides are called ("A" / "B", or "now" / "after"). */
  names: { a: string; b: string };
  selection?: ApplySelection;
  /** Distinguishes two bodies on one page (the view and its dialog). */
  testIdPrefix?: string;
  /** Side by side on a wide screen (a dialog keeps the unified diff). */
  allowSideBySide?: boolean;
}

type StepRef = Comparison['a'];

/** The compare's `removed_at` of an item; nothing for a dry run's item, which has none. */
function removedAtOf(item: object): StepRef | undefined {
  return 'removed_at' in item ? ((item.removed_at as StepRef | null) ?? undefined) : undefined;
}

/** Who removed it (the compare's `removed_by`), in the words of the step's "Discarded here". */
function removedByOf(item: object): string | undefined {
  if (!('removed_by' in item) || item.removed_by === null) return undefined;
  return item.removed_by === 'agent' ? 'by the agent' : 'by hand';
}

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

/** The document diff and the structured lists with badges; with a selection, a checkbox per changed item. */
export function ComparisonBody({
  comparison: c,
  names,
  selection,
  testIdPrefix = 'compare',
  allowSideBySide = true,
}: ComparisonBodyProps) {
  const wide = useWide() && allowSideBySide;
  const headingId = useId();
  const sides = documentSides(c);
  const tickbox = (candidate: ApplyCandidate | null | undefined, label: string) =>
    selection && candidate ? <Tick candidate={candidate} selection={selection} label={label} /> : null;
  const wholeDocumentTicked =
    selection?.candidates.document != null && selection.ticked.has(selection.candidates.document.id);
  return (
    <>
      <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-2">
        <h2 id={headingId} className="text-sm font-semibold">
          Document{' '}
          <span className="font-normal text-muted-foreground" data-testid={`${testIdPrefix}-words`}>
            +{c.document.words_added} −{c.document.words_removed} words
          </span>
        </h2>
        {c.document.title.changed ? (
          <p className="text-sm break-words">
            Title: <del>{c.document.title.a}</del> → <ins>{c.document.title.b}</ins>
          </p>
        ) : null}
        {c.objective.changed ? (
          <div className="flex items-start gap-2 text-sm">
            {tickbox(selection?.candidates.objective, 'Objective')}
            <p className="min-w-0 break-words">
              Objective: <del>{c.objective.a ?? 'none'}</del> → <ins>{c.objective.b ?? 'none'}</ins>
            </p>
          </div>
        ) : null}
        {selection && (selection.candidates.document !== null || selection.candidates.sections.length > 0) ? (
          <fieldset className="flex flex-col gap-1 rounded-md border p-2" data-testid="apply-sections">
            <legend className="px-1 text-xs font-medium text-muted-foreground">Bring over</legend>
            {selection.candidates.document !== null && (
              <label className="flex items-center gap-2 text-sm" data-testid="apply-whole-document">
                {tickbox(selection.candidates.document, 'The whole document')}
                The whole document
              </label>
            )}
            {selection.candidates.sections.map((section) => (
              <SectionRow
                key={section.id}
                section={section}
                selection={selection}
                names={names}
                isCovered={wholeDocumentTicked}
              />
            ))}
          </fieldset>
        ) : null}
        {c.document.changed ? (
          <DocumentMerge
            a={sides.a}
            b={sides.b}
            sideBySide={wide}
            names={names}
            testId={`${testIdPrefix}-document`}
          />
        ) : (
          <p className="text-sm text-muted-foreground">The document is the same on both sides.</p>
        )}
      </section>

      <ItemList
        title="Preferences"
        testId={`${testIdPrefix}-preferences`}
        items={c.preferences.map((p) => ({
          key: p.key,
          status: p.status,
          changes: p.changes,
          text: (p.b ?? p.a)!.text,
          detail: [p.a?.locked ? `${names.a}: locked` : null, p.b?.locked ? `${names.b}: locked` : null]
            .filter(Boolean)
            .join(' · '),
          tick: p.key === null ? null : tickbox(selection?.candidates.preferences.get(p.key), `Preference ${(p.b ?? p.a)!.text}`),
          removedAt: removedAtOf(p),
          removedBy: removedByOf(p),
        }))}
      />
      <ItemList
        title="Todos"
        testId={`${testIdPrefix}-todos`}
        items={c.todos.map((t) => ({
          key: t.key,
          status: t.status,
          changes: t.changes,
          text: (t.b ?? t.a)!.text,
          detail: [
            t.a ? `${names.a}: ${t.a.done ? 'done' : 'open'}` : null,
            t.b ? `${names.b}: ${t.b.done ? 'done' : 'open'}` : null,
          ]
            .filter(Boolean)
            .join(' · '),
          tick: t.key === null ? null : tickbox(selection?.candidates.todos.get(t.key), `Todo ${(t.b ?? t.a)!.text}`),
          removedAt: removedAtOf(t),
          removedBy: removedByOf(t),
        }))}
      />
      <ItemList
        title="Artifacts"
        testId={`${testIdPrefix}-artifacts`}
        items={c.artifacts.map((x) => ({
          key: x.key,
          status: x.status,
          changes: [],
          text: (x.b ?? x.a)!.title,
          detail: (x.b ?? x.a)!.kind,
          tick: x.key === null ? null : tickbox(selection?.candidates.artifacts.get(x.key), `Artifact ${(x.b ?? x.a)!.title}`),
        }))}
      />
    </>
  );
}

/** A labelled native checkbox: Space toggles it, the label names the item. */
function Tick({
  candidate,
  selection,
  label,
  isDisabled = false,
}: {
  candidate: ApplyCandidate;
  selection: ApplySelection;
  label: string;
  isDisabled?: boolean;
}) {
  return (
    <input
      type="checkbox"
      data-testid="apply-tick"
      data-item-id={candidate.id}
      aria-label={label}
      checked={selection.ticked.has(candidate.id)}
      disabled={isDisabled}
      onChange={() => selection.onToggle(candidate.id)}
      className="size-4 shrink-0 accent-[var(--brand)]"
    />
  );
}

const SECTION_STATUS: Record<SectionCandidate['status'], { tone: Status; text: (names: { a: string; b: string }) => string }> = {
  edited: { tone: 'edited', text: () => 'edited' },
  'only-a': { tone: 'removed', text: (names) => `only on ${names.a}` },
  'only-b': { tone: 'added', text: (names) => `only on ${names.b}` },
};

function SectionRow({
  section,
  selection,
  names,
  isCovered,
}: {
  section: SectionCandidate;
  selection: ApplySelection;
  names: { a: string; b: string };
  isCovered: boolean;
}) {
  const status = SECTION_STATUS[section.status];
  return (
    <label
      className={cn('flex min-w-0 items-center gap-2 text-sm', isCovered && 'opacity-60')}
      style={{ paddingInlineStart: `${(section.level - 1) * 0.75}rem` }}
      data-testid="apply-section"
      data-status={section.status}
    >
      <Tick candidate={section} selection={selection} label={`Section ${section.heading}`} isDisabled={isCovered} />
      <Badge tone={status.tone}>{status.text(names)}</Badge>
      <span className="min-w-0 truncate" title={section.heading}>
        <span aria-hidden className="font-mono text-muted-foreground">
          {'#'.repeat(section.level)}{' '}
        </span>
        {section.heading}
      </span>
    </label>
  );
}

function ItemList({
  title,
  testId,
  items,
}: {
  title: string;
  testId: string;
  items: {
    key: string | null;
    status: Status;
    changes: readonly string[];
    text: string;
    detail: string;
    tick: ReactNode;
    removedAt?: StepRef | undefined;
    removedBy?: string | undefined;
  }[];
}) {
  return (
    <section aria-label={title} className="flex min-w-0 flex-col gap-2">
      <h2 className="text-sm font-semibold">{title}</h2>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">None on either side.</p>
      ) : (
        <ul className="flex flex-col gap-1" data-testid={testId}>
          {items.map((item, i) => (
            <li
              key={item.key ?? `i${i}`}
              className="flex min-w-0 flex-wrap items-center gap-2 text-sm"
              data-status={item.status}
            >
              {item.tick}
              {badges(item.status, item.changes).map((b) => (
                <Badge key={b.text} tone={b.tone}>
                  {b.text}
                </Badge>
              ))}
              <span className={cn('min-w-0 break-words', item.status === 'removed' && 'line-through')}>{item.text}</span>
              {item.detail ? <span className="text-xs text-muted-foreground">{item.detail}</span> : null}
              {item.removedAt ? (
                <Link
                  href={stepHref(item.removedAt.node_id)}
                  className="text-xs text-muted-foreground underline underline-offset-2 hover:text-foreground"
                  data-testid="compare-removed-at"
                  data-node-id={item.removedAt.node_id}
                  title="Open the step that removed it"
                >
                  removed at step {item.removedAt.label}
                </Link>
              ) : null}
              {item.removedAt && item.removedBy ? (
                <span className="text-xs text-muted-foreground" data-testid="compare-removed-by">
                  {item.removedBy}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
