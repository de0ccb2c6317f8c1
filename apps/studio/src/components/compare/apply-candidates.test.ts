import type { WorkspaceComparison } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { applyCandidates, itemsOnto } from './apply-candidates';

const a = '# Bees\nBees thrive.\n## Findings\nOld.\n## Only A\nHere.';
const b = '# Bees\nBees thrive.\n## Findings\nNew.\n## Outlook\nLater.';

const comparison: WorkspaceComparison = {
  objective: { a: 'Write about bees', b: null, changed: true },
  document: {
    title: { a: 'Bees', b: 'Bees', changed: false },
    changed: true,
    words_added: 3,
    words_removed: 3,
    // Not a minimal diff, but each side is the concatenation of its hunks, which is all that counts here.
    hunks: [
      { op: 'delete', text: a },
      { op: 'insert', text: b },
    ],
  },
  preferences: [
    { key: 'p1', status: 'edited', changes: ['locked'], a: { text: 'Cite', locked: false }, b: { text: 'Cite', locked: true } },
    { key: 'p2', status: 'removed', changes: [], a: { text: 'Short', locked: false }, b: null },
    { key: 'p3', status: 'unchanged', changes: [], a: { text: 'Same', locked: false }, b: { text: 'Same', locked: false } },
    { key: null, status: 'added', changes: [], a: null, b: { text: 'Old row', locked: false } },
  ],
  todos: [{ key: 't1', status: 'added', changes: [], a: null, b: { text: 'Ship', done: false, depth: 0 } }],
  artifacts: [],
};

describe('apply candidates', () => {
  const candidates = applyCandidates(comparison);

  it('offers each differing section once, with the directions it can go in', () => {
    expect(candidates.sections.map((s) => [s.heading, s.status, s.onto.a !== null, s.onto.b !== null])).toEqual([
      ['Bees', 'edited', true, true],
      ['Findings', 'edited', true, true],
      ['Outlook', 'only-b', true, false],
      ['Only A', 'only-a', false, true],
    ]);
  });

  it('offers changed keyed items only, each direction only where the source side has the item', () => {
    expect([...candidates.preferences.keys()]).toEqual(['p1', 'p2']);
    expect(candidates.preferences.get('p2')!.onto).toEqual({ a: null, b: { kind: 'preference', key: 'p2' } });
    expect(candidates.todos.get('t1')!.onto).toEqual({ a: { kind: 'todo', key: 't1' }, b: null });
    expect(candidates.objective!.onto).toEqual({ a: null, b: { kind: 'objective' } });
  });

  it('onto A takes what B has; what B lacks is named as unavailable', () => {
    const ticked = new Set(['section:Findings', 'section:Only A', 'preference:p1', 'preference:p2', 'objective']);
    expect(itemsOnto(candidates, ticked, 'a')).toEqual({
      items: [
        { kind: 'section', heading: 'Findings' },
        { kind: 'preference', key: 'p1' },
      ],
      unavailable: ['section Only A', 'the objective', "preference 'Short'"],
    });
    expect(itemsOnto(candidates, ticked, 'b').items).toHaveLength(5);
  });

  it('a ticked whole document leaves its ticked sections out', () => {
    const ticked = new Set(['document', 'section:Findings', 'todo:t1']);
    expect(itemsOnto(candidates, ticked, 'a').items).toEqual([{ kind: 'document' }, { kind: 'todo', key: 't1' }]);
  });
});
