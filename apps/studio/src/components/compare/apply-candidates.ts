/**
 * What the compare view can bring from one side onto the other. An item is offered once (one
 * checkbox) and carries the request item for each direction it makes sense in: "onto A" takes B's
 * version, "onto B" takes A's. A direction is null when the source side has nothing to give (a
 * preference only on A cannot be brought onto A; an apply never deletes). Items are matched by key,
 * so a key-less item (older than keys) is offered nowhere. Pure.
 */
import type { ApplyItem, WorkspaceComparison } from '@trellis/domain';
import { sectionsToApply } from './document-sections';

export type ApplySide = 'a' | 'b';

export interface ApplyCandidate {
  readonly id: string;
  /** How the dialog names it when it cannot go in a direction ("preference 'Cite sources'"). */
  readonly description: string;
  readonly onto: Readonly<Record<ApplySide, ApplyItem | null>>;
}

export interface SectionCandidate extends ApplyCandidate {
  readonly heading: string;
  readonly level: number;
  /** `edited` on both sides, or present on one side only. */
  readonly status: 'edited' | 'only-a' | 'only-b';
}

export interface ApplyCandidates {
  readonly document: ApplyCandidate | null;
  readonly sections: readonly SectionCandidate[];
  readonly objective: ApplyCandidate | null;
  /** By item key. */
  readonly preferences: ReadonlyMap<string, ApplyCandidate>;
  readonly todos: ReadonlyMap<string, ApplyCandidate>;
  readonly artifacts: ReadonlyMap<string, ApplyCandidate>;
}

/** Each side's document body: a side is the concatenation of its hunks (the compare contract). */
export function documentSides(comparison: WorkspaceComparison): Record<ApplySide, string> {
  const { hunks } = comparison.document;
  return {
    a: hunks.filter((h) => h.op !== 'insert').map((h) => h.text).join(''),
    b: hunks.filter((h) => h.op !== 'delete').map((h) => h.text).join(''),
  };
}

export function applyCandidates(comparison: WorkspaceComparison): ApplyCandidates {
  const sides = documentSides(comparison);
  const ontoA = new Map(sectionsToApply(sides.b, sides.a).map((s) => [s.heading, s]));
  const ontoB = new Map(sectionsToApply(sides.a, sides.b).map((s) => [s.heading, s]));
  const headings = [...new Set([...ontoA.keys(), ...ontoB.keys()])];
  const sections = headings.map((heading): SectionCandidate => {
    const a = ontoA.get(heading);
    const b = ontoB.get(heading);
    const item: ApplyItem = { kind: 'section', heading };
    return {
      id: `section:${heading}`,
      description: `section ${heading}`,
      heading,
      level: (a ?? b)!.level,
      status: a?.status === 'added' ? 'only-b' : b?.status === 'added' ? 'only-a' : 'edited',
      onto: { a: a ? item : null, b: b ? item : null },
    };
  });

  const keyed = <T extends { key: string | null; status: string; a: unknown; b: unknown }>(
    rows: readonly T[],
    kind: 'preference' | 'todo' | 'artifact',
    name: (row: T) => string,
  ): Map<string, ApplyCandidate> => {
    const out = new Map<string, ApplyCandidate>();
    for (const row of rows) {
      if (row.key === null || row.status === 'unchanged') continue;
      const item: ApplyItem = { kind, key: row.key };
      out.set(row.key, {
        id: `${kind}:${row.key}`,
        description: `${kind} '${name(row)}'`,
        onto: { a: row.b !== null ? item : null, b: row.a !== null ? item : null },
      });
    }
    return out;
  };

  const { objective, document } = comparison;
  return {
    document: document.changed
      ? { id: 'document', description: 'the whole document', onto: { a: { kind: 'document' }, b: { kind: 'document' } } }
      : null,
    sections,
    objective: objective.changed
      ? {
          id: 'objective',
          description: 'the objective',
          onto: { a: objective.b !== null ? { kind: 'objective' } : null, b: objective.a !== null ? { kind: 'objective' } : null },
        }
      : null,
    preferences: keyed(comparison.preferences, 'preference', (p) => (p.b ?? p.a)?.text ?? ''),
    todos: keyed(comparison.todos, 'todo', (t) => (t.b ?? t.a)?.text ?? ''),
    artifacts: keyed(comparison.artifacts, 'artifact', (x) => (x.b ?? x.a)?.title ?? ''),
  };
}

export function allCandidates(candidates: ApplyCandidates): ApplyCandidate[] {
  return [
    ...(candidates.document ? [candidates.document] : []),
    ...candidates.sections,
    ...(candidates.objective ? [candidates.objective] : []),
    ...candidates.preferences.values(),
    ...candidates.todos.values(),
    ...candidates.artifacts.values(),
  ];
}

export interface ApplyRequestItems {
  /** The request items for the ticked candidates that can go onto `side`, in display order. */
  readonly items: ApplyItem[];
  /** Ticked candidates the other side does not have (nothing to bring in this direction). */
  readonly unavailable: string[];
}

/**
 * The request for bringing the ticked items onto `side`. A ticked whole document makes its ticked
 * sections redundant, so they are left out.
 */
export function itemsOnto(candidates: ApplyCandidates, ticked: ReadonlySet<string>, side: ApplySide): ApplyRequestItems {
  const wholeDocument = candidates.document !== null && ticked.has(candidates.document.id);
  const sectionIds = new Set(candidates.sections.map((s) => s.id));
  const items: ApplyItem[] = [];
  const unavailable: string[] = [];
  for (const candidate of allCandidates(candidates)) {
    if (!ticked.has(candidate.id)) continue;
    if (wholeDocument && sectionIds.has(candidate.id)) continue;
    const item = candidate.onto[side];
    if (item === null) unavailable.push(candidate.description);
    else items.push(item);
  }
  return { items, unavailable };
}
