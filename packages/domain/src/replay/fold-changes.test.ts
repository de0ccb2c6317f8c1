import { describe, expect, it } from 'vitest';
import { makeDocPatch } from '../changes/doc-patch';
import { changeDiff } from './change-diff';
import { EMPTY_WORKSPACE, foldChanges } from './fold-changes';

const docEdit = (before: string, after: string) => ({
  kind: 'document' as const,
  key: null,
  op: 'patch',
  before: { version: 1 },
  after: { version: 2, patch: makeDocPatch(before, after) },
});

describe('folding a step’s changes onto its snapshot', () => {
  it('replays document patches, the title and the objective in order', () => {
    const state = foldChanges(EMPTY_WORKSPACE, [
      docEdit('', 'Draft one.'),
      { kind: 'document_title', key: null, op: 'set', before: { title: '' }, after: { title: 'Review' } },
      docEdit('Draft one.', 'Draft one. Draft two.'),
      { kind: 'objective', key: null, op: 'set', before: { text: null }, after: { text: 'Ship it' } },
    ]);
    expect(state.document).toEqual({ title: 'Review', content: 'Draft one. Draft two.' });
    expect(state.objective).toBe('Ship it');
  });

  it('creates, edits, reorders and removes list items by key', () => {
    const state = foldChanges(EMPTY_WORKSPACE, [
      {
        kind: 'todo',
        key: 'a',
        op: 'create',
        before: null,
        after: { text: 'A', done: false, depth: 0, position: 0 },
      },
      {
        kind: 'todo',
        key: 'b',
        op: 'create',
        before: null,
        after: { text: 'B', done: false, depth: 0, position: 1 },
      },
      {
        kind: 'todo',
        key: 'c',
        op: 'create',
        before: null,
        after: { text: 'C', done: false, depth: 1, position: 2 },
      },
      { kind: 'todo', key: 'a', op: 'update', before: { done: false }, after: { done: true } },
      {
        kind: 'todo',
        key: null,
        op: 'reorder',
        before: { order: ['a', 'b', 'c'] },
        after: { order: ['c', 'a', 'b'] },
      },
      { kind: 'todo', key: 'b', op: 'delete', before: { text: 'B' }, after: null },
      {
        kind: 'preference',
        key: 'p',
        op: 'create',
        before: null,
        after: { text: 'Short', locked: true, position: 0 },
      },
    ]);
    expect(state.todos).toEqual([
      { key: 'c', text: 'C', done: false, depth: 1 },
      { key: 'a', text: 'A', done: true, depth: 0 },
    ]);
    expect(state.preferences).toEqual([{ key: 'p', text: 'Short', locked: true }]);
  });

  it('never changes the snapshot it starts from', () => {
    const base = {
      ...EMPTY_WORKSPACE,
      document: { title: 'T', content: 'x' },
      todos: [{ key: 'a', text: 'A', done: false, depth: 0 }],
    };
    const copy = structuredClone(base);
    foldChanges(base, [
      docEdit('x', 'y'),
      { kind: 'todo', key: 'a', op: 'update', before: {}, after: { done: true } },
    ]);
    expect(base).toEqual(copy);
  });

  it('skips a patch that does not fit the text instead of failing the replay', () => {
    const state = foldChanges({ ...EMPTY_WORKSPACE, document: { title: '', content: 'ab' } }, [
      { kind: 'document', key: null, op: 'patch', before: {}, after: { patch: [{ r: 10 }, { i: 'x' }] } },
    ]);
    expect(state.document.content).toBe('ab');
  });
});

describe('the diff of one change', () => {
  it('marks a document patch’s deleted and inserted runs over the text it was made on', () => {
    const before = { ...EMPTY_WORKSPACE, document: { title: '', content: 'The cat sat.' } };
    const diff = changeDiff(before, docEdit('The cat sat.', 'The dog sat.'));
    expect(diff.target).toBe('document');
    expect(
      diff.parts
        .filter((p) => p.kind === 'delete')
        .map((p) => p.text)
        .join(''),
    ).toBe('cat');
    expect(
      diff.parts
        .filter((p) => p.kind === 'insert')
        .map((p) => p.text)
        .join(''),
    ).toBe('dog');
    expect(diff.parts.map((p) => (p.kind === 'insert' ? '' : p.text)).join('')).toBe('The cat sat.');
  });

  it('cuts long unchanged runs to their edges', () => {
    const long = 'x'.repeat(5_000);
    const diff = changeDiff(
      { ...EMPTY_WORKSPACE, document: { title: '', content: long } },
      docEdit(long, `${long}!`),
    );
    expect(diff.parts[0]!.text.length).toBeLessThan(500);
    expect(diff.parts.at(-1)).toEqual({ kind: 'insert', text: '!' });
  });

  it('names a checked to-do', () => {
    const before = { ...EMPTY_WORKSPACE, todos: [{ key: 'a', text: 'Read', done: false, depth: 0 }] };
    expect(
      changeDiff(before, {
        kind: 'todo',
        key: 'a',
        op: 'update',
        before: { done: false },
        after: { done: true },
      }).summary,
    ).toBe('checked a to-do');
  });
});
