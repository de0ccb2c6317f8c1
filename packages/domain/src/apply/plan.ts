// Planning an apply (docs/architecture.md, "Deciding between branches"): the chosen items of a source
// state laid onto a target state, as a pure function. The service loads both states, writes what this
// returns as one new turn and stores the descriptions as the transcript entry; the dry run compares
// the two target states. Identity is the item key: an item the target already holds (same key) is
// updated in place, a missing one is added with the source's key, so a later compare pairs them.
import { AppError, type FieldIssue } from '../errors/app-error';
import type { WorkspaceState } from '../workspace/snapshot';
import { previewText } from '../workspace/snapshot';
import type { ApplyItem, AppliedItem, ApplyProvenance, SkippedItem } from './contracts';
import { findSection, placeSection, putSection, sectionText, sourcePlace } from './sections';

export interface ApplyArtifact {
  key: string | null;
  kind: string;
  title: string;
  content: string;
}

/** A workspace state with its artifacts (bodies included): what an apply reads and produces. */
export interface ApplyState extends WorkspaceState {
  artifacts: ApplyArtifact[];
}

export interface ApplyPlan {
  /** The target's state after the apply. */
  state: ApplyState;
  applied: AppliedItem[];
  skipped: SkippedItem[];
}

type Todo = WorkspaceState['todos'][number];
type Effect = AppliedItem['effect'];

const DESCRIPTION_TEXT_CHARS = 60;

/**
 * Lays `items` of `source` onto `target`, in request order. Throws `validation_failed` (422) when an
 * item is not in the source, `conflict` (409) when one would change a preference that is locked on
 * the target (locks bind; nothing is applied then). An item naming what an earlier item of the same
 * request already brought is skipped, as is `summary` (an agent turn of its own, applied alone).
 */
export function planApply(source: ApplyState, target: ApplyState, items: readonly ApplyItem[]): ApplyPlan {
  // The source document is read once per heading, however many items name it.
  const sections = new Map<string, string | null>();
  const sourceSection = (heading: string): string | null => {
    if (!sections.has(heading)) sections.set(heading, sectionText(source.document.content, heading));
    return sections.get(heading)!;
  };
  const missing: FieldIssue[] = [];
  items.forEach((item, i) => {
    if (!isInSource(source, item, sourceSection)) missing.push({ path: `items.${i}`, message: `${describeRequested(item)} is not in the source step` });
  });
  if (missing.length > 0) throw AppError.validation(missing, 'An item to apply is not in the source step');

  let state: ApplyState = {
    objective: target.objective,
    document: { ...target.document },
    preferences: [...target.preferences],
    todos: [...target.todos],
    artifacts: [...target.artifacts],
  };
  const applied: AppliedItem[] = [];
  const skipped: SkippedItem[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const identity = itemIdentity(item);
    if (item.kind === 'summary') {
      skipped.push({ item, description: 'summary', reason: 'a summary is an agent turn of its own: apply it alone' });
      continue;
    }
    if (seen.has(identity)) {
      skipped.push({ item, description: describe(source, item), reason: 'an earlier item of this apply already brings it' });
      continue;
    }
    seen.add(identity);
    const step = applyOne(source, state, item, sourceSection);
    state = step.state;
    applied.push({ item, description: describe(source, item), effect: step.effect });
    // A todo's subtree brings its children: naming one of them afterwards is a duplicate.
    for (const key of step.alsoBrought ?? []) seen.add(`todo:${key}`);
  }
  return { state, applied, skipped };
}

function applyOne(
  source: ApplyState,
  state: ApplyState,
  item: Exclude<ApplyItem, { kind: 'summary' }>,
  sourceSection: (heading: string) => string | null,
): {
  state: ApplyState;
  effect: Effect;
  alsoBrought?: string[];
} {
  switch (item.kind) {
    case 'document': {
      const effect: Effect =
        state.document.title === source.document.title && state.document.content === source.document.content
          ? 'unchanged'
          : state.document.title === '' && state.document.content === ''
            ? 'added'
            : 'replaced';
      return { state: { ...state, document: { ...source.document } }, effect };
    }
    case 'section': {
      const { content, effect } = putPlacedSection(state.document.content, source.document.content, item, sourceSection(item.heading)!);
      return { state: { ...state, document: { ...state.document, content } }, effect };
    }
    case 'objective': {
      const effect: Effect = state.objective === source.objective ? 'unchanged' : state.objective === null ? 'added' : 'replaced';
      return { state: { ...state, objective: source.objective }, effect };
    }
    case 'preference': {
      const incoming = source.preferences.find((p) => p.key === item.key)!;
      const at = state.preferences.findIndex((p) => p.key === item.key);
      if (at === -1) return { state: { ...state, preferences: [...state.preferences, { ...incoming }] }, effect: 'added' };
      const current = state.preferences[at]!;
      if (current.text === incoming.text && current.locked === incoming.locked) return { state, effect: 'unchanged' };
      if (current.locked) {
        throw new AppError(
          'conflict',
          `The preference '${previewText(current.text, DESCRIPTION_TEXT_CHARS)}' is locked on the target; unlock it there to apply this change`,
          { details: { key: item.key } },
        );
      }
      const preferences = [...state.preferences];
      preferences[at] = { ...incoming };
      return { state: { ...state, preferences }, effect: 'replaced' };
    }
    case 'todo': {
      const subtree = todoSubtree(source.todos, item.key, item.with_children ?? true);
      const todos = placeTodos(state.todos, subtree);
      const had = state.todos.some((t) => t.key === item.key);
      const effect: Effect = !had ? 'added' : sameTodos(state.todos, todos) ? 'unchanged' : 'replaced';
      return { state: { ...state, todos }, effect, alsoBrought: subtree.slice(1).flatMap((t) => (t.key === null ? [] : [t.key])) };
    }
    case 'artifact': {
      const incoming = source.artifacts.find((a) => a.key === item.key)!;
      const at = state.artifacts.findIndex((a) => a.key === item.key);
      if (at === -1) return { state: { ...state, artifacts: [...state.artifacts, { ...incoming }] }, effect: 'added' };
      const current = state.artifacts[at]!;
      if (current.title === incoming.title && current.kind === incoming.kind && current.content === incoming.content) {
        return { state, effect: 'unchanged' };
      }
      const artifacts = [...state.artifacts];
      artifacts[at] = { ...incoming };
      return { state: { ...state, artifacts }, effect: 'replaced' };
    }
  }
}

/**
 * The todo `key` of `todos` and, with `withChildren`, its nested children: the todos right after it
 * that are deeper than it (depth is the nesting).
 */
export function todoSubtree(todos: readonly Todo[], key: string, withChildren: boolean): Todo[] {
  const at = todos.findIndex((t) => t.key === key);
  if (at === -1) return [];
  const root = todos[at]!;
  if (!withChildren) return [{ ...root }];
  let end = at + 1;
  while (end < todos.length && todos[end]!.depth > root.depth) end++;
  return todos.slice(at, end).map((t) => ({ ...t }));
}

/**
 * The target's todos with `subtree` placed: every target todo with a key of the subtree leaves its
 * place, and the subtree goes where its root was (at the end when the target had no such root), as
 * the source has it (text, done, depth). The target's other todos keep their order.
 */
function placeTodos(todos: readonly Todo[], subtree: readonly Todo[]): Todo[] {
  const keys = new Set(subtree.flatMap((t) => (t.key === null ? [] : [t.key])));
  const rootKey = subtree[0]!.key;
  const out: Todo[] = [];
  let placed = false;
  for (const todo of todos) {
    if (todo.key !== null && todo.key === rootKey) {
      out.push(...subtree);
      placed = true;
    } else if (todo.key === null || !keys.has(todo.key)) {
      out.push(todo);
    }
  }
  if (!placed) out.push(...subtree);
  return out;
}

function sameTodos(a: readonly Todo[], b: readonly Todo[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i]!;
      return x.key === y.key && x.text === y.text && x.done === y.done && x.depth === y.depth;
    })
  );
}

function isInSource(source: ApplyState, item: ApplyItem, sourceSection: (heading: string) => string | null): boolean {
  switch (item.kind) {
    case 'document':
    case 'summary':
      return true;
    case 'objective':
      return source.objective !== null;
    case 'section':
      return sourceSection(item.heading) !== null;
    case 'preference':
      return source.preferences.some((p) => p.key === item.key);
    case 'todo':
      return source.todos.some((t) => t.key === item.key);
    case 'artifact':
      return source.artifacts.some((a) => a.key === item.key);
  }
}

function itemIdentity(item: ApplyItem): string {
  switch (item.kind) {
    case 'section':
      return `section:${item.heading.replace(/\s+/g, ' ')}`;
    case 'preference':
    case 'todo':
    case 'artifact':
      return `${item.kind}:${item.key}`;
    default:
      return item.kind;
  }
}

/** How an item reads in answers and in the transcript entry: "section Findings", "preference 'Cite sources' (locked)". */
export function describe(source: ApplyState, item: ApplyItem): string {
  const quote = (text: string) => `'${previewText(text, DESCRIPTION_TEXT_CHARS)}'`;
  switch (item.kind) {
    case 'document':
      return 'document';
    case 'objective':
      return 'objective';
    case 'summary':
      return 'summary';
    case 'section':
      return `section ${previewText(item.heading, DESCRIPTION_TEXT_CHARS)}`;
    case 'preference': {
      const p = source.preferences.find((x) => x.key === item.key);
      return p ? `preference ${quote(p.text)}${p.locked ? ' (locked)' : ''}` : 'preference';
    }
    case 'todo': {
      const subtree = todoSubtree(source.todos, item.key, item.with_children ?? true);
      const root = subtree[0];
      if (!root) return 'todo';
      const nested = subtree.length - 1;
      return `todo ${quote(root.text)}${nested > 0 ? ` with ${nested} nested` : ''}`;
    }
    case 'artifact': {
      const a = source.artifacts.find((x) => x.key === item.key);
      return a ? `artifact ${quote(a.title)}` : 'artifact';
    }
  }
}

function describeRequested(item: ApplyItem): string {
  switch (item.kind) {
    case 'section':
      return `The section '${previewText(item.heading, DESCRIPTION_TEXT_CHARS)}'`;
    case 'objective':
      return 'An objective';
    case 'preference':
    case 'todo':
    case 'artifact':
      return `The ${item.kind} ${item.key}`;
    default:
      return `The ${item.kind}`;
  }
}

/** The transcript entry of an apply step: "Applied from 4.1: section Findings, preference 'Cite sources' (locked)". */
export function applyEntryText(provenance: Pick<ApplyProvenance, 'source_label' | 'items' | 'note'>): string {
  const line = `Applied from ${provenance.source_label}: ${provenance.items.length > 0 ? provenance.items.join(', ') : 'nothing'}`;
  return provenance.note ? `${line}\n\n${provenance.note}` : line;
}

/**
 * A section's landing: where the request puts it; else in place of the target's section
 * of the same heading; else where it stands on the source; else at the end. A place whose heading
 * the target lacks is a 409 that names it.
 */
function putPlacedSection(
  target: string,
  source: string,
  item: Extract<ApplyItem, { kind: 'section' }>,
  section: string,
): { content: string; effect: Effect } {
  const place = item.place ?? (findSection(target, item.heading) === null ? sourcePlace(source, item.heading, target) : null);
  if (place === null) return putSection(target, item.heading, section);
  try {
    return placeSection(target, item.heading, section, place);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new AppError('conflict', `The target has no section '${previewText(error.message, DESCRIPTION_TEXT_CHARS)}' to place it by`, {
      details: { place },
    });
  }
}
