import { assembleFamilyGraph, regeneratedTitle, type FamilyGraph } from '@trellis/domain';
import { FamilyBuilder } from '@trellis/domain/graph/testing';
import { describe, expect, it } from 'vitest';
import { forkPointsOf } from './fork-points';

function family() {
  const f = new FamilyBuilder();
  const root = f.root();
  f.turns(root, 3);
  const edit = f.branch(root, 1, 'edit'); // a sibling of step 2
  f.turns(edit, 2);
  const regen = f.branch(root, 1, 'regenerate'); // another one
  f.turns(regen, 1);
  const nested = f.branch(edit, 2, 'edit'); // a sibling of step 3 on the edited path only
  f.turns(nested, 1);
  const graphFor = (threadId: string): FamilyGraph =>
    assembleFamilyGraph({ requestedThreadId: threadId, ...f.rows() });
  return { f, root, edit, regen, nested, graphFor };
}

const entries = (forks: ReadonlyMap<number, unknown>) => [...forks].sort(([a], [b]) => a - b);

describe('forkPointsOf', () => {
  it('finds every fork on the displayed path with its position, oldest sibling first', () => {
    const { root, edit, regen, nested, graphFor } = family();
    expect(entries(forkPointsOf(graphFor(root), root))).toEqual([[2, { message: { index: 0, count: 3, place: 'message' } }]]);
    expect(entries(forkPointsOf(graphFor(edit), edit))).toEqual([
      [2, { message: { index: 1, count: 3, place: 'message' } }],
      [3, { message: { index: 0, count: 2, place: 'message' } }],
    ]);
    expect(entries(forkPointsOf(graphFor(regen), regen))).toEqual([[2, { message: { index: 2, count: 3, place: 'message' } }]]);
    expect(entries(forkPointsOf(graphFor(nested), nested))).toEqual([
      [2, { message: { index: 1, count: 3, place: 'message' } }],
      [3, { message: { index: 1, count: 2, place: 'message' } }],
    ]);
  });

  it('a linear conversation has no fork', () => {
    const f = new FamilyBuilder();
    const root = f.root();
    f.turns(root, 4);
    const graph = assembleFamilyGraph({ requestedThreadId: root, ...f.rows() });
    expect(forkPointsOf(graph, root).size).toBe(0);
  });

  it('answers for another thread of the family from a graph fetched for the thread left', () => {
    const { root, edit, nested, graphFor } = family();
    expect(entries(forkPointsOf(graphFor(root), nested))).toEqual(entries(forkPointsOf(graphFor(nested), nested)));
    expect(entries(forkPointsOf(graphFor(nested), root))).toEqual(entries(forkPointsOf(graphFor(root), root)));
    expect(entries(forkPointsOf(graphFor(edit), root))).toEqual([[2, { message: { index: 0, count: 3, place: 'message' } }]]);
  });

  it('knows no forks for a thread the graph does not hold, nor without a graph', () => {
    const { root, graphFor } = family();
    expect(forkPointsOf(graphFor(root), 'th_00000000000000000000000000000000').size).toBe(0);
    expect(forkPointsOf(undefined, root).size).toBe(0);
    expect(forkPointsOf(graphFor(root), null).size).toBe(0);
  });

  it('puts regeneration alternatives on the reply’s ‹ i/n ›, edits on the message’s; a renamed regeneration is a path', () => {
    const f = new FamilyBuilder();
    const root = f.root();
    f.turns(root, 3);
    // a regeneration re-sends the step's message
    const again = { user_message: `message 2 of ${root}` };
    const first = f.branch(root, 1, 'regenerate', regeneratedTitle(2));
    f.turn(first, again);
    const second = f.branch(root, 1, 'regenerate', regeneratedTitle(2));
    f.turn(second, again);
    const graphFor = (threadId: string) => assembleFamilyGraph({ requestedThreadId: threadId, ...f.rows() });
    expect(entries(forkPointsOf(graphFor(second), second))).toEqual([[2, { reply: { index: 2, count: 3, place: 'reply' } }]]);
    expect(entries(forkPointsOf(graphFor(root), root))).toEqual([[2, { reply: { index: 0, count: 3, place: 'reply' } }]]);

    const edit = f.branch(root, 1, 'edit');
    f.turn(edit, { user_message: 'an edited message' });
    expect(entries(forkPointsOf(graphFor(first), first))).toEqual([
      [2, { message: { index: 0, count: 2, place: 'message' }, reply: { index: 1, count: 3, place: 'reply' } }],
    ]);
    expect(entries(forkPointsOf(graphFor(edit), edit))).toEqual([[2, { message: { index: 1, count: 2, place: 'message' } }]]);

    // "Branch n" titles (the family above) are renamed regenerations: paths, on the message's pager
    const renamed = f.branch(root, 1, 'regenerate', 'Kept this one');
    f.turn(renamed, again);
    expect(entries(forkPointsOf(graphFor(renamed), renamed))).toEqual([[2, { message: { index: 2, count: 3, place: 'message' } }]]);
  });

  it('a deleted sibling leaves the list', () => {
    const { f, root, regen } = family();
    f.softDelete(regen);
    const graph = assembleFamilyGraph({ requestedThreadId: root, ...f.rows() });
    expect(entries(forkPointsOf(graph, root))).toEqual([[2, { message: { index: 0, count: 2, place: 'message' } }]]);
  });
});
