'use client';
import type { GraphNode, StepChanges } from '@trellis/domain';
import { useQuery } from '@tanstack/react-query';
import { Check, Lock } from 'lucide-react';
import { Badge, badges } from '@/components/compare/item-badge';
import { compareApi } from '@/lib/api/compare';
import { cn } from '@/lib/cn';

/** Items listed per section before "and N more". */
const MAX_LISTED = 8;

/** "What changed" (the compare of the step before and this one) and "Discarded here" (the decision log). */
export function StepChangesDetail({ step }: { step: GraphNode }) {
  const summary = step.change_summary;
  const query = useQuery({
    // The stored summary and discard count are in the key: a graph refetch that changed them refetches this.
    queryKey: ['step-changes', step.thread_id, step.turn_index, summary, step.discarded_count],
    queryFn: ({ signal }) => compareApi.changes(step.thread_id, step.turn_index, signal),
  });
  const heading = (
    <h4 className="text-[10px] font-semibold uppercase tracking-wide text-muted-foreground">What changed</h4>
  );
  if (query.isPending) {
    return (
      <div data-testid="step-what-changed" aria-busy="true">
        {heading}
        <p className="text-muted-foreground">Loading…</p>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div data-testid="step-what-changed">
        {heading}
        <p className="text-muted-foreground">What changed could not be loaded.</p>
      </div>
    );
  }
  const changes = query.data;
  const items = changedItems(changes);
  return (
    <>
      <div data-testid="step-what-changed">
        {heading}
        <p data-testid="step-changes-words" className="font-mono tabular-nums">
          <span className="text-emerald-700">+{changes.document.words_added}</span>{' '}
          <span className="text-rose-700">−{changes.document.words_removed}</span>
          <span className="font-sans text-muted-foreground"> words</span>
        </p>
        <AuthorsLine byAuthor={changes.by_author} />
        {items.length === 0 ? (
          <p className="text-muted-foreground">No preference, todo or artifact changed.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1">
            {items.slice(0, MAX_LISTED).map((item, i) => (
              <li
                key={`${item.kind}:${item.key ?? i}`}
                data-testid="step-change-item"
                data-status={item.status}
                className="flex items-center gap-1.5"
              >
                {badges(item.status, item.changes).map((b) => (
                  <Badge key={b.text} tone={b.tone}>
                    {b.text}
                  </Badge>
                ))}
                <span className="sr-only">{item.kind}:</span>
                <span className={cn('min-w-0 truncate', item.status === 'removed' && 'line-through')} title={item.text}>
                  {item.text}
                </span>
                {item.by && (
                  <span data-testid="step-change-by" className="ml-auto shrink-0 text-muted-foreground">
                    {item.by}
                  </span>
                )}
              </li>
            ))}
            {items.length > MAX_LISTED && <li className="text-muted-foreground">and {items.length - MAX_LISTED} more</li>}
          </ul>
        )}
      </div>
      {changes.discarded.length > 0 && (
        <div data-testid="step-discarded">
          <h4 className="text-[10px] font-semibold uppercase tracking-wide text-muted-foreground">Discarded here</h4>
          <ul className="mt-1 flex flex-col gap-1">
            {changes.discarded.slice(0, MAX_LISTED).map((item, i) => (
              <li
                key={`${item.key}:${i}`}
                data-testid="step-discarded-item"
                data-kind={item.kind}
                className="flex items-center gap-1.5"
              >
                <span className="min-w-0 truncate line-through" title={item.text}>
                  {item.text}
                </span>
                {item.kind === 'preference' && item.locked && (
                  <span className="flex shrink-0 items-center gap-0.5 text-muted-foreground">
                    <Lock aria-hidden className="size-3" />
                    locked
                  </span>
                )}
                {item.kind === 'todo' && item.done && (
                  <span className="flex shrink-0 items-center gap-0.5 text-muted-foreground">
                    <Check aria-hidden className="size-3" />
                    done
                  </span>
                )}
                <span className="ml-auto shrink-0 text-muted-foreground">
                  {item.kind} · {item.by === 'agent' ? 'by the agent' : 'by hand'}
                </span>
              </li>
            ))}
            {changes.discarded.length > MAX_LISTED && (
              <li className="text-muted-foreground">and {changes.discarded.length - MAX_LISTED} more</li>
            )}
          </ul>
        </div>
      )}
    </>
  );
}

/** "you +120 words · agent +340 words": what each side wrote at this step that the document still holds. */
function AuthorsLine({ byAuthor }: { byAuthor: StepChanges['by_author'] }) {
  const { person_words: person, agent_words: agent, agent_edited_words: edited } = byAuthor.words;
  return (
    <p data-testid="step-authors" className="tabular-nums text-muted-foreground">
      <span className="authorship-person rounded-sm px-0.5 text-foreground">you +{person} words</span>
      {' · '}
      <span className="authorship-agent rounded-sm px-0.5 text-foreground">agent +{agent} words</span>
      {edited > 0 && (
        <>
          {' · '}
          <span className="authorship-agent_edited rounded-sm px-0.5 text-foreground">agent’s, edited by you: {edited} words</span>
        </>
      )}
    </p>
  );
}

interface ChangedItem {
  kind: 'preference' | 'todo' | 'artifact';
  key: string | null;
  status: StepChanges['preferences'][number]['status'];
  changes: readonly string[];
  text: string;
  /** Who changed it at this step, in the words of "Discarded here": "by hand", "by the agent", or both. */
  by: string | null;
}

function changedBy(byAuthor: StepChanges['by_author'], kind: ChangedItem['kind'], key: string | null): string | null {
  const has = (items: StepChanges['by_author']['person_items']) => items.some((i) => i.kind === kind && i.key === key);
  const person = key !== null && has(byAuthor.person_items);
  const agent = key !== null && has(byAuthor.agent_items);
  if (person && agent) return 'by hand and by the agent';
  return person ? 'by hand' : agent ? 'by the agent' : null;
}

function changedItems(changes: StepChanges): ChangedItem[] {
  const by = (kind: ChangedItem['kind'], key: string | null) => changedBy(changes.by_author, kind, key);
  const items: ChangedItem[] = [];
  for (const p of changes.preferences)
    if (p.status !== 'unchanged')
      items.push({ kind: 'preference', key: p.key, status: p.status, changes: p.changes, text: (p.b ?? p.a)!.text, by: by('preference', p.key) });
  for (const t of changes.todos)
    if (t.status !== 'unchanged')
      items.push({ kind: 'todo', key: t.key, status: t.status, changes: t.changes, text: (t.b ?? t.a)!.text, by: by('todo', t.key) });
  for (const x of changes.artifacts)
    if (x.status !== 'unchanged')
      items.push({ kind: 'artifact', key: x.key, status: x.status, changes: [], text: (x.b ?? x.a)!.title, by: by('artifact', x.key) });
  return items;
}
