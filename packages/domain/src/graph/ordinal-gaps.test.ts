import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph } from './assemble';
import { ordinalGapNotes } from './ordinal-gaps';
import { FamilyBuilder } from './testing';

function graphOf(f: FamilyBuilder, requested: string) {
  return assembleFamilyGraph({ requestedThreadId: requested, ...f.rows(), maxNodes: 10_000 });
}

describe('ordinalGapNotes', () => {
  it('says that the missing 4.1 was continued from the tip', () => {
    const f = new FamilyBuilder();
    const root = f.root();
    f.turns(root, 3);
    const continued = f.branch(root, 3);
    f.turns(continued, 2);
    const second = f.branch(root, 3);
    f.turns(second, 1);
    const graph = graphOf(f, root);
    const suffixes = Object.fromEntries(graph.threads.map((t) => [t.thread_id, t.suffix]));
    expect([suffixes[continued], suffixes[second]]).toEqual(['', '.2']);
    expect(ordinalGapNotes(graph.threads).get(second)).toBe(
      "4.2: the second path from step 3; 4.1 was continued from step 3, so it keeps its parent's numbers",
    );
    expect(ordinalGapNotes(graph.threads).size).toBe(1);
  });

  it('names an archived or regenerated sibling, and a deleted one it cannot see', () => {
    const f = new FamilyBuilder();
    const root = f.root();
    f.turns(root, 4);
    const first = f.branch(root, 2);
    f.turns(first, 1);
    const regenerated = f.branch(root, 2, 'regenerate', 'Regenerated at step 3');
    f.turns(regenerated, 1);
    const gone = f.branch(root, 1);
    f.turns(gone, 1);
    f.softDelete(gone);
    const last = f.branch(root, 3);
    f.turns(last, 1);
    const threads = graphOf(f, root).threads.map((t) => (t.thread_id === first ? { ...t, archived: true } : t));
    expect(threads.find((t) => t.thread_id === last)?.suffix).toBe('.4');
    expect(ordinalGapNotes(threads).get(last)).toBe(
      '4.4: the fourth path from step 3; 3.1 is archived; 3.2 is a regenerated reply, stacked on its step; path .3 was archived or deleted',
    );
  });

  it('has nothing to say about first paths and gapless ordinals', () => {
    const f = new FamilyBuilder();
    const root = f.root();
    f.turns(root, 3);
    f.turns(f.branch(root, 1), 1);
    f.turns(f.branch(root, 2), 1);
    expect(ordinalGapNotes(graphOf(f, root).threads).size).toBe(0);
  });
});
