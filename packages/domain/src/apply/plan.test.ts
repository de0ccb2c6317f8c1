import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors/app-error';
import { compareWorkspaces } from '../compare/compare';
import { applyEntryText, planApply, todoSubtree, type ApplyState } from './plan';

const K = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function state(over: Partial<ApplyState> = {}): ApplyState {
  return { objective: null, document: { title: '', content: '' }, preferences: [], todos: [], artifacts: [], ...over };
}

const source = state({
  objective: 'Write the report',
  document: { title: 'Report', content: '# Report\n\n## Findings\nNew findings.\n\n## Method\nHow.\n' },
  preferences: [
    { key: K(1), text: 'Cite sources', locked: true },
    { key: K(2), text: 'Short sentences', locked: false },
  ],
  todos: [
    { key: K(10), text: 'Outline', done: true, depth: 0 },
    { key: K(11), text: 'Intro', done: false, depth: 1 },
    { key: K(12), text: 'Body', done: false, depth: 1 },
    { key: K(13), text: 'Body detail', done: false, depth: 2 },
    { key: K(14), text: 'Proofread', done: false, depth: 0 },
  ],
  artifacts: [{ key: K(20), kind: 'note', title: 'Sources', content: 'a, b' }],
});

function thrown(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('planApply', () => {
  it('adds every kind of item the target lacks, keeping the source keys', () => {
    const plan = planApply(source, state(), [
      { kind: 'document' },
      { kind: 'objective' },
      { kind: 'preference', key: K(1) },
      { kind: 'todo', key: K(10) },
      { kind: 'artifact', key: K(20) },
    ]);
    expect(plan.applied.map((a) => [a.description, a.effect])).toEqual([
      ['document', 'added'],
      ['objective', 'added'],
      ["preference 'Cite sources' (locked)", 'added'],
      ["todo 'Outline' with 3 nested", 'added'],
      ["artifact 'Sources'", 'added'],
    ]);
    expect(plan.state.preferences).toEqual([{ key: K(1), text: 'Cite sources', locked: true }]);
    expect(plan.state.todos.map((t) => t.key)).toEqual([K(10), K(11), K(12), K(13)]);
    expect(plan.state.artifacts).toEqual(source.artifacts);
    expect(plan.skipped).toEqual([]);
  });

  it('replaces items the target holds under the same key, in place', () => {
    const target = state({
      objective: 'Old',
      preferences: [
        { key: K(3), text: 'Other', locked: false },
        { key: K(2), text: 'Long sentences', locked: false },
      ],
      todos: [
        { key: K(15), text: 'First', done: false, depth: 0 },
        { key: K(10), text: 'Outline (old)', done: false, depth: 0 },
        { key: K(11), text: 'Intro', done: false, depth: 1 },
        { key: K(16), text: 'Last', done: false, depth: 0 },
      ],
      artifacts: [{ key: K(20), kind: 'note', title: 'Sources', content: 'old' }],
    });
    const plan = planApply(source, target, [
      { kind: 'objective' },
      { kind: 'preference', key: K(2) },
      { kind: 'todo', key: K(10) },
      { kind: 'artifact', key: K(20) },
    ]);
    expect(plan.applied.map((a) => a.effect)).toEqual(['replaced', 'replaced', 'replaced', 'replaced']);
    expect(plan.state.objective).toBe('Write the report');
    expect(plan.state.preferences).toEqual([
      { key: K(3), text: 'Other', locked: false },
      { key: K(2), text: 'Short sentences', locked: false },
    ]);
    expect(plan.state.todos.map((t) => t.text)).toEqual(['First', 'Outline', 'Intro', 'Body', 'Body detail', 'Last']);
    expect(plan.state.artifacts[0]!.content).toBe('a, b');
  });

  it('brings only the todo itself when with_children is false', () => {
    const plan = planApply(source, state(), [{ kind: 'todo', key: K(10), with_children: false }]);
    expect(plan.state.todos).toEqual([{ key: K(10), text: 'Outline', done: true, depth: 0 }]);
    expect(plan.applied[0]!.description).toBe("todo 'Outline'");
  });

  it('says unchanged when the target already holds an equal item', () => {
    const plan = planApply(source, source, [
      { kind: 'document' },
      { kind: 'section', heading: 'Findings' },
      { kind: 'objective' },
      { kind: 'preference', key: K(1) },
      { kind: 'todo', key: K(12) },
      { kind: 'artifact', key: K(20) },
    ]);
    expect(plan.applied.map((a) => a.effect)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(plan.state).toEqual(source);
  });

  it('replaces a section of the same heading, or puts it where it stands on the source', () => {
    const target = state({ document: { title: 'Mine', content: '# Mine\n\n## Findings\nOld.\n\n## Notes\nKeep.\n' } });
    const replaced = planApply(source, target, [{ kind: 'section', heading: 'Findings' }]);
    expect(replaced.applied[0]).toMatchObject({ description: 'section Findings', effect: 'replaced' });
    expect(replaced.state.document).toEqual({ title: 'Mine', content: '# Mine\n\n## Findings\nNew findings.\n\n## Notes\nKeep.\n' });
    const appended = planApply(source, target, [{ kind: 'section', heading: 'Method' }]);
    expect(appended.applied[0]!.effect).toBe('added');
    expect(appended.state.document.content).toBe('# Mine\n\n## Findings\nOld.\n\n## Method\nHow.\n\n## Notes\nKeep.\n');
    const nowhere = planApply(source, state({ document: { title: '', content: '# Other\n\n## Notes\nKeep.\n' } }), [{ kind: 'section', heading: 'Method' }]);
    expect(nowhere.state.document.content).toBe('# Other\n\n## Notes\nKeep.\n\n## Method\nHow.\n');
  });

  it('puts a section after or before a chosen section, or in place of one', () => {
    const target = state({ document: { title: 'Mine', content: '# Mine\n\n## Intro\nHi.\n\n## References\nRefs.\n' } });
    const after = planApply(source, target, [{ kind: 'section', heading: 'Method', place: { after: 'Intro' } }]);
    expect(after.state.document.content).toBe('# Mine\n\n## Intro\nHi.\n\n## Method\nHow.\n\n## References\nRefs.\n');
    expect(after.applied[0]!.effect).toBe('added');
    const before = planApply(source, target, [{ kind: 'section', heading: 'Method', place: { before: 'Intro' } }]);
    expect(before.state.document.content).toBe('# Mine\n\n## Method\nHow.\n\n## Intro\nHi.\n\n## References\nRefs.\n');
    const replaced = planApply(source, target, [{ kind: 'section', heading: 'Method', place: { replace: 'Intro' } }]);
    expect(replaced.state.document.content).toBe('# Mine\n\n## Method\nHow.\n\n## References\nRefs.\n');
    expect(replaced.applied[0]!.effect).toBe('replaced');
  });

  it('moves a section the target already has to the chosen place, and refuses a place the target lacks', () => {
    const target = state({ document: { title: 'Mine', content: '# Mine\n\n## Findings\nOld.\n\n## Notes\nKeep.\n' } });
    const moved = planApply(source, target, [{ kind: 'section', heading: 'Findings', place: { after: 'Notes' } }]);
    expect(moved.state.document.content).toBe('# Mine\n\n## Notes\nKeep.\n\n## Findings\nNew findings.\n');
    expect(moved.applied[0]!.effect).toBe('replaced');
    const error = thrown(() => planApply(source, target, [{ kind: 'section', heading: 'Method', place: { after: 'Nowhere' } }]));
    expect(isAppError(error) && error.code).toBe('conflict');
    expect(isAppError(error) && error.message).toContain("'Nowhere'");
  });

  it('refuses with a conflict a change to a preference locked on the target', () => {
    const target = state({ preferences: [{ key: K(2), text: 'Long sentences', locked: true }] });
    const error = thrown(() => planApply(source, target, [{ kind: 'objective' }, { kind: 'preference', key: K(2) }]));
    expect(isAppError(error) && error.code).toBe('conflict');
  });

  it('lets an item equal to the locked target preference through (nothing changes)', () => {
    const target = state({ preferences: [{ key: K(1), text: 'Cite sources', locked: true }] });
    expect(planApply(source, target, [{ kind: 'preference', key: K(1) }]).applied[0]!.effect).toBe('unchanged');
  });

  it('refuses an item the source does not hold, naming every one', () => {
    const error = thrown(() =>
      planApply(state(), state(), [
        { kind: 'section', heading: 'Nowhere' },
        { kind: 'objective' },
        { kind: 'preference', key: K(9) },
        { kind: 'todo', key: K(9) },
        { kind: 'artifact', key: K(9) },
        { kind: 'document' },
      ]),
    );
    expect(isAppError(error) && error.code).toBe('validation_failed');
    expect(isAppError(error) && (error.details as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'items.0',
      'items.1',
      'items.2',
      'items.3',
      'items.4',
    ]);
  });

  it('skips a duplicate, a child its parent todo already brought, and a summary', () => {
    const plan = planApply(source, state(), [
      { kind: 'todo', key: K(10) },
      { kind: 'todo', key: K(12) },
      { kind: 'preference', key: K(1) },
      { kind: 'preference', key: K(1) },
      { kind: 'summary' },
    ]);
    expect(plan.applied.map((a) => a.description)).toEqual(["todo 'Outline' with 3 nested", "preference 'Cite sources' (locked)"]);
    expect(plan.skipped.map((s) => s.description)).toEqual(["todo 'Body' with 1 nested", "preference 'Cite sources' (locked)", 'summary']);
  });

  it('leaves a later compare of source and target showing the applied items unchanged', () => {
    const target = state({ preferences: [{ key: K(2), text: 'Long', locked: false }], todos: [{ key: K(14), text: 'Proof', done: true, depth: 0 }] });
    const plan = planApply(source, target, [
      { kind: 'preference', key: K(1) },
      { kind: 'preference', key: K(2) },
      { kind: 'todo', key: K(10) },
      { kind: 'artifact', key: K(20) },
    ]);
    const c = compareWorkspaces(source, plan.state);
    for (const key of [K(1), K(2)]) expect(c.preferences.find((p) => p.key === key)?.changes.filter((x) => x !== 'position')).toEqual([]);
    for (const key of [K(10), K(11), K(12), K(13)]) expect(c.todos.find((t) => t.key === key)?.changes.filter((x) => x !== 'position')).toEqual([]);
    expect(c.artifacts.find((a) => a.key === K(20))?.status).toBe('unchanged');
  });
});

describe('todoSubtree', () => {
  it('takes the following deeper todos as the children', () => {
    expect(todoSubtree(source.todos, K(12), true).map((t) => t.text)).toEqual(['Body', 'Body detail']);
    expect(todoSubtree(source.todos, K(14), true).map((t) => t.text)).toEqual(['Proofread']);
    expect(todoSubtree(source.todos, K(99), true)).toEqual([]);
  });
});

describe('applyEntryText', () => {
  it('names the source label and the items, then the note', () => {
    expect(applyEntryText({ source_label: '4.1', items: ['section Findings', "preference 'Cite sources' (locked)"], note: null })).toBe(
      "Applied from 4.1: section Findings, preference 'Cite sources' (locked)",
    );
    expect(applyEntryText({ source_label: '2', items: ['objective'], note: 'keep this' })).toBe('Applied from 2: objective\n\nkeep this');
  });
});
