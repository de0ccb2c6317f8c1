import type { Workspace } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { applyLocalEdit, toWorkspaceOverride, workspaceSignature, type LocalEdit } from './local-workspace';

const restored: Workspace = {
  objective: 'A field guide',
  document: { title: 'Guide', content: '# Bees' },
  preferences: [
    { id: 'th_a:2:p0', key: '11111111-1111-4111-8111-111111111111', text: 'Short paragraphs', locked: false, position: 0 },
    { id: 'th_a:2:p1', key: null, text: 'British spelling', locked: true, position: 1 },
  ],
  todos: [
    { id: 'th_a:2:t0', key: '22222222-2222-4222-8222-222222222222', text: 'Research', done: false, depth: 0, position: 0 },
    { id: 'th_a:2:t1', key: null, text: 'Call the council', done: false, depth: 1, position: 1 },
  ],
  artifacts: [],
};

const apply = (...edits: LocalEdit[]) => edits.reduce(applyLocalEdit, restored);

describe('a preview workspace edited locally', () => {
  it('changes the signature for every field a branch is seeded with', () => {
    const baseline = workspaceSignature(restored);
    const edits: LocalEdit[] = [
      { kind: 'objective', text: null },
      { kind: 'document-title', title: 'Field guide' },
      { kind: 'document-content', content: '# Bees!' },
      { kind: 'add-preference', id: 'local-1', text: 'Cite sources' },
      { kind: 'update-preference', id: 'th_a:2:p0', patch: { locked: true } },
      { kind: 'remove-preference', id: 'th_a:2:p1' },
      { kind: 'reorder-preferences', ids: ['th_a:2:p1', 'th_a:2:p0'] },
      { kind: 'add-todo', id: 'local-2', text: 'Buy gloves', depth: 0 },
      { kind: 'update-todo', id: 'th_a:2:t1', patch: { done: true } },
      { kind: 'update-todo', id: 'th_a:2:t1', patch: { depth: 0 } },
      { kind: 'remove-todo', id: 'th_a:2:t0' },
      { kind: 'reorder-todos', ids: ['th_a:2:t1', 'th_a:2:t0'] },
    ];
    for (const edit of edits) expect(workspaceSignature(apply(edit)), edit.kind).not.toBe(baseline);
  });

  it('is unedited again once an edit is undone, whatever ids and positions say', () => {
    const undone = apply(
      { kind: 'update-preference', id: 'th_a:2:p0', patch: { text: 'Long paragraphs' } },
      { kind: 'update-preference', id: 'th_a:2:p0', patch: { text: 'Short paragraphs' } },
      { kind: 'reorder-todos', ids: ['th_a:2:t1', 'th_a:2:t0'] },
      { kind: 'reorder-todos', ids: ['th_a:2:t0', 'th_a:2:t1'] },
    );
    expect(workspaceSignature(undone)).toBe(workspaceSignature(restored));
  });

  it('sends what is displayed, in display order, as the branch override, kept items with their keys', () => {
    const edited = apply(
      { kind: 'update-preference', id: 'th_a:2:p1', patch: { text: 'American spelling' } },
      { kind: 'add-todo', id: 'local-1', text: 'Buy gloves', depth: 1 },
      { kind: 'update-todo', id: 'th_a:2:t0', patch: { done: true } },
      { kind: 'reorder-todos', ids: ['local-1', 'th_a:2:t0', 'th_a:2:t1'] },
    );
    expect(toWorkspaceOverride(edited)).toEqual({
      objective: 'A field guide',
      document: { title: 'Guide', content: '# Bees' },
      preferences: [
        { key: '11111111-1111-4111-8111-111111111111', text: 'Short paragraphs', locked: false },
        { text: 'American spelling', locked: true },
      ],
      todos: [
        { text: 'Buy gloves', done: false, depth: 1 },
        { key: '22222222-2222-4222-8222-222222222222', text: 'Research', done: true, depth: 0 },
        { text: 'Call the council', done: false, depth: 1 },
      ],
    });
  });

  it('keeps positions contiguous after removals and reorders', () => {
    const w = apply(
      { kind: 'remove-todo', id: 'th_a:2:t0' },
      { kind: 'add-todo', id: 'local-1', text: 'x', depth: 0 },
    );
    expect(w.todos.map((t) => t.position)).toEqual([0, 1]);
  });
});
