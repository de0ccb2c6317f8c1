import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyWorkspaceOverride, ownerOfTurn, type LineageEntry } from '../workspace/restore';
import { compareWorkspaces, type CompareState } from './compare';
import type { WorkspaceComparison } from './contracts';
import { forkStep } from './fork';

const words = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'trellis', 'vine', '\n', '#');
const doc = fc.array(words, { maxLength: 30 }).map((w) => w.join(' '));
const itemText = fc.constantFrom('Cite sources', 'Short sentences', 'British spelling', 'Outline', 'Intro', 'Notes');
const maybeKey = fc.option(fc.uuid(), { nil: null, freq: 4 });

function uniqueKeys<T extends { key: string | null }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.map((item) => {
    if (item.key === null || !seen.has(item.key)) {
      if (item.key) seen.add(item.key);
      return item;
    }
    return { ...item, key: null };
  });
}

const stateArb: fc.Arbitrary<CompareState> = fc.record({
  objective: fc.option(fc.constantFrom('Essay', 'Report', ''), { nil: null }),
  document: fc.record({ title: fc.constantFrom('', 'Draft', 'Final'), content: doc }),
  preferences: fc.array(fc.record({ key: maybeKey, text: itemText, locked: fc.boolean() }), { maxLength: 6 }).map(uniqueKeys),
  todos: fc
    .array(fc.record({ key: maybeKey, text: itemText, done: fc.boolean(), depth: fc.integer({ min: 0, max: 3 }) }), { maxLength: 6 })
    .map(uniqueKeys),
  artifacts: fc.array(fc.record({ key: maybeKey, title: itemText, kind: fc.constantFrom('note', 'table') }), { maxLength: 4 }).map(uniqueKeys),
});

/**
 * A comparison seen from the other side: a↔b, added↔removed, and the net word change negated. (The
 * split into added and removed words follows the diff library's choice among equally short edit
 * scripts, which is not symmetric: "delta alpha" → "trellis delta" may keep "delta" one way and the
 * space the other. The net change is the same either way.)
 */
function mirrored(c: WorkspaceComparison) {
  const flip = (s: string) => (s === 'added' ? 'removed' : s === 'removed' ? 'added' : s);
  const items = (list: { key: string | null; status: string; a: unknown; b: unknown; changes?: string[] }[]) =>
    list
      .map((e) => JSON.stringify([e.key, flip(e.status), [...(e.changes ?? [])].sort(), e.b, e.a]))
      .sort();
  return {
    objective: [c.objective.b, c.objective.a, c.objective.changed],
    title: [c.document.title.b, c.document.title.a, c.document.title.changed],
    document: [c.document.changed, c.document.words_removed - c.document.words_added],
    preferences: items(c.preferences),
    todos: items(c.todos),
    artifacts: items(c.artifacts),
  };
}
function plain(c: WorkspaceComparison) {
  const items = (list: { key: string | null; status: string; a: unknown; b: unknown; changes?: string[] }[]) =>
    list.map((e) => JSON.stringify([e.key, e.status, [...(e.changes ?? [])].sort(), e.a, e.b])).sort();
  return {
    objective: [c.objective.a, c.objective.b, c.objective.changed],
    title: [c.document.title.a, c.document.title.b, c.document.title.changed],
    document: [c.document.changed, c.document.words_added - c.document.words_removed],
    preferences: items(c.preferences),
    todos: items(c.todos),
    artifacts: items(c.artifacts),
  };
}

describe('compare properties', () => {
  it('compare(x, x) is all unchanged', () => {
    fc.assert(
      fc.property(stateArb, (x) => {
        const c = compareWorkspaces(x, x);
        expect(c.objective.changed || c.document.changed || c.document.title.changed).toBe(false);
        expect(c.document.words_added + c.document.words_removed).toBe(0);
        for (const e of [...c.preferences, ...c.todos, ...c.artifacts]) expect(e.status).toBe('unchanged');
        expect(c.preferences).toHaveLength(x.preferences.length);
        expect(c.todos).toHaveLength(x.todos.length);
      }),
    );
  });

  it('compare(a, b) mirrors compare(b, a)', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (a, b) => {
        expect(plain(compareWorkspaces(a, b))).toEqual(mirrored(compareWorkspaces(b, a)));
      }),
    );
  });

  it('every item appears once, and each side rebuilds from the document hunks', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (a, b) => {
        const c = compareWorkspaces(a, b);
        expect(c.preferences.filter((e) => e.a).length).toBe(a.preferences.length);
        expect(c.preferences.filter((e) => e.b).length).toBe(b.preferences.length);
        expect(c.todos.filter((e) => e.b).map((e) => e.b)).toEqual(b.todos.map(({ text, done, depth }) => ({ text, done, depth })));
        expect(c.document.hunks.filter((h) => h.op !== 'insert').map((h) => h.text).join('')).toBe(a.document.content);
        expect(c.document.hunks.filter((h) => h.op !== 'delete').map((h) => h.text).join('')).toBe(b.document.content);
      }),
    );
  });
});

// A model of one path's preferences under the operations that touch identity: branch copies (the
// restore state sent back as an edited-preview override, kept items with their keys), overrides that
// edit, edits, deletes and additions. The model knows each item's fate; the compare must agree.
type Op =
  | { kind: 'copy' }
  | { kind: 'edit'; at: number; text: string }
  | { kind: 'lock'; at: number }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; text: string; key: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: 'copy' }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(10), text: itemText }),
  fc.record({ kind: fc.constant('lock' as const), at: fc.nat(10) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(10) }),
  fc.record({ kind: fc.constant('add' as const), text: itemText, key: fc.uuid() }),
);

describe('item keys survive', () => {
  it('random sequences of branch copies, overrides, edits and deletes', () => {
    fc.assert(
      fc.property(stateArb, fc.array(opArb, { maxLength: 25 }), (startRaw, ops) => {
        // Live items always have keys.
        const start: CompareState = {
          ...startRaw,
          preferences: startRaw.preferences.map((p, i) => ({ ...p, key: p.key ?? `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })),
        };
        const initial = new Map(start.preferences.map((p) => [p.key!, p]));
        const edited = new Set<string>();
        const deleted = new Set<string>();
        const added = new Set<string>();
        let current = start;
        for (const op of ops) {
          const prefs = current.preferences;
          const target = prefs.length ? prefs[op.kind === 'copy' || op.kind === 'add' ? 0 : op.at % prefs.length]! : undefined;
          if (op.kind === 'copy') {
            // The branch is seeded from the displayed workspace; the rows take the kept keys.
            const override = { preferences: prefs.map((p) => ({ key: p.key!, text: p.text, locked: p.locked })) };
            current = { ...applyWorkspaceOverride(current, override), artifacts: current.artifacts };
          } else if (op.kind === 'add') {
            current = { ...current, preferences: [...prefs, { key: op.key, text: op.text, locked: false }] };
            added.add(op.key);
          } else if (target) {
            const key = target.key!;
            if (op.kind === 'delete') {
              current = { ...current, preferences: prefs.filter((p) => p.key !== key) };
              if (added.has(key)) added.delete(key);
              else deleted.add(key);
            } else {
              const next = op.kind === 'edit' ? { ...target, text: op.text } : { ...target, locked: !target.locked };
              current = { ...current, preferences: prefs.map((p) => (p.key === key ? next : p)) };
              if (initial.has(key)) edited.add(key);
            }
          }
        }
        const c = compareWorkspaces(start, current);
        for (const e of c.preferences) {
          if (e.status === 'added') expect(added.has(e.key!)).toBe(true);
          else if (e.status === 'removed') expect(deleted.has(e.key!)).toBe(true);
          else {
            expect(initial.has(e.key!)).toBe(true);
            const textOrLock = e.changes.filter((x) => x !== 'position');
            if (!edited.has(e.key!)) expect(textOrLock).toEqual([]);
            expect(e.a).toEqual({ text: initial.get(e.key!)!.text, locked: initial.get(e.key!)!.locked });
          }
        }
        expect(c.preferences.filter((e) => e.status === 'removed')).toHaveLength(deleted.size);
        expect(c.preferences.filter((e) => e.status === 'added')).toHaveLength(added.size);
      }),
    );
  });
});

// The same model for todos, whose edits are text, done and depth. The expected changes of an item
// both sides hold are exactly the fields its final version differs in from its first.
type TodoOp =
  | { kind: 'copy' }
  | { kind: 'text'; at: number; text: string }
  | { kind: 'done'; at: number }
  | { kind: 'depth'; at: number; depth: number }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; text: string; key: string; depth: number };

const todoOpArb: fc.Arbitrary<TodoOp> = fc.oneof(
  fc.constant<TodoOp>({ kind: 'copy' }),
  fc.record({ kind: fc.constant('text' as const), at: fc.nat(10), text: itemText }),
  fc.record({ kind: fc.constant('done' as const), at: fc.nat(10) }),
  fc.record({ kind: fc.constant('depth' as const), at: fc.nat(10), depth: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(10) }),
  fc.record({ kind: fc.constant('add' as const), text: itemText, key: fc.uuid(), depth: fc.integer({ min: 0, max: 3 }) }),
);

describe('todo keys survive', () => {
  it('random sequences of branch copies, text, done and depth edits, deletes and additions', () => {
    fc.assert(
      fc.property(stateArb, fc.array(todoOpArb, { maxLength: 25 }), (startRaw, ops) => {
        const liveKey = (prefix: string, i: number) => `00000000-0000-4000-${prefix}-${String(i).padStart(12, '0')}`;
        const start: CompareState = {
          ...startRaw,
          preferences: startRaw.preferences.map((p, i) => ({ ...p, key: p.key ?? liveKey('8000', i) })),
          todos: startRaw.todos.map((t, i) => ({ ...t, key: t.key ?? liveKey('9000', i) })),
        };
        const initial = new Map(start.todos.map((t) => [t.key!, t]));
        const deleted = new Set<string>();
        const added = new Set<string>();
        let current = start;
        for (const op of ops) {
          const todos = current.todos;
          if (op.kind === 'copy') {
            // A branch seeded from an edited preview: both lists come back with the kept keys.
            const override = {
              preferences: current.preferences.map((p) => ({ key: p.key!, text: p.text, locked: p.locked })),
              todos: todos.map((t) => ({ key: t.key!, text: t.text, done: t.done, depth: t.depth })),
            };
            current = { ...applyWorkspaceOverride(current, override), artifacts: current.artifacts };
            continue;
          }
          if (op.kind === 'add') {
            current = { ...current, todos: [...todos, { key: op.key, text: op.text, done: false, depth: op.depth }] };
            added.add(op.key);
            continue;
          }
          const target = todos[op.at % Math.max(todos.length, 1)];
          if (!target) continue;
          const key = target.key!;
          if (op.kind === 'delete') {
            current = { ...current, todos: todos.filter((t) => t.key !== key) };
            if (added.has(key)) added.delete(key);
            else deleted.add(key);
            continue;
          }
          const next =
            op.kind === 'text' ? { ...target, text: op.text } : op.kind === 'done' ? { ...target, done: !target.done } : { ...target, depth: op.depth };
          current = { ...current, todos: todos.map((t) => (t.key === key ? next : t)) };
        }
        const c = compareWorkspaces(start, current);
        const final = new Map(current.todos.map((t) => [t.key!, t]));
        for (const e of c.todos) {
          if (e.status === 'added') {
            expect(added.has(e.key!)).toBe(true);
            expect(e.b).toEqual({ text: final.get(e.key!)!.text, done: final.get(e.key!)!.done, depth: final.get(e.key!)!.depth });
          } else if (e.status === 'removed') {
            expect(deleted.has(e.key!)).toBe(true);
          } else {
            const first = initial.get(e.key!)!;
            const last = final.get(e.key!)!;
            expect(e.a).toEqual({ text: first.text, done: first.done, depth: first.depth });
            expect(e.b).toEqual({ text: last.text, done: last.done, depth: last.depth });
            const expected = (['text', 'done', 'depth'] as const).filter((field) => first[field] !== last[field]);
            expect(e.changes.filter((x) => x !== 'position')).toEqual(expected);
            expect(e.status).toBe(e.changes.length > 0 ? 'edited' : 'unchanged');
          }
        }
        expect(c.todos.filter((e) => e.status === 'removed')).toHaveLength(deleted.size);
        expect(c.todos.filter((e) => e.status === 'added')).toHaveLength(added.size);
        expect(c.todos.filter((e) => e.a !== null && e.b !== null)).toHaveLength(current.todos.length - added.size);
        // Copies carried the preferences' keys along: none of them moved in or out.
        expect(c.preferences.every((e) => e.status === 'unchanged')).toBe(true);
      }),
    );
  });
});

// Random families: each new thread branches off an existing one at a turn it can reach.
const familyArb = fc
  .array(fc.record({ parent: fc.nat(), at: fc.nat(12), own: fc.integer({ min: 0, max: 6 }) }), { maxLength: 8 })
  .map((specs) => {
    const lineages: LineageEntry[][] = [[{ thread_id: 't0', branch_point_turn: null, turn_index: 8 }]];
    specs.forEach((spec, n) => {
      const parent = lineages[spec.parent % lineages.length]!;
      const tip = parent.at(-1)!;
      const low = tip.branch_point_turn ?? 0;
      const at = low + (spec.at % (tip.turn_index - low + 1));
      if (tip.branch_point_turn !== null && at <= tip.branch_point_turn) return;
      lineages.push([...parent, { thread_id: `t${n + 1}`, branch_point_turn: at, turn_index: at + spec.own }]);
    });
    return lineages;
  });

describe('fork', () => {
  it('is the deepest shared step', () => {
    fc.assert(
      fc.property(familyArb, fc.nat(), fc.nat(), fc.nat(), fc.nat(), (lineages, i, j, ti, tj) => {
        const la = lineages[i % lineages.length]!;
        const lb = lineages[j % lineages.length]!;
        const ta = ti % (la.at(-1)!.turn_index + 1);
        const tb = tj % (lb.at(-1)!.turn_index + 1);
        const fork = forkStep({ lineage: la, turn: ta }, { lineage: lb, turn: tb })!;
        expect(fork.turn).toBeLessThanOrEqual(Math.min(ta, tb));
        // Shared: every step up to the fork has one owner on both paths.
        for (let t = 1; t <= fork.turn; t++) expect(ownerOfTurn(la, t)).toBe(ownerOfTurn(lb, t));
        // Deepest: the next step is on one path only, or owned by different threads.
        if (fork.turn < Math.min(ta, tb)) expect(ownerOfTurn(la, fork.turn + 1)).not.toBe(ownerOfTurn(lb, fork.turn + 1));
        expect(forkStep({ lineage: lb, turn: tb }, { lineage: la, turn: ta })).toEqual(fork);
      }),
    );
  });
});
