import { describe, expect, it } from 'vitest';
import { computeThreadSuffixes, stepLabel } from './labels';
import { FamilyBuilder } from './testing';

/** Labels of every node, in creation order of threads then turn, as `thread:turn → label`. */
function labelsOf(builder: FamilyBuilder): string[] {
  const { threads, turns } = builder.rows();
  const suffixes = computeThreadSuffixes({ threads, nodes: turns });
  return builder.threadIds.flatMap((threadId) =>
    turns
      .filter((turn) => turn.thread_id === threadId)
      .map((turn) => stepLabel(turn.turn_index, suffixes[threadId] ?? '?')),
  );
}

function labelsOfThread(builder: FamilyBuilder, threadId: string): string[] {
  const { threads, turns } = builder.rows();
  const suffix = computeThreadSuffixes({ threads, nodes: turns })[threadId];
  return turns
    .filter((turn) => turn.thread_id === threadId)
    .map((turn) => stepLabel(turn.turn_index, suffix ?? '?'));
}

describe('computeThreadSuffixes (docs/branching.md, "Step labels" worked examples)', () => {
  it('numbers the root path 1, 2, 3 with no suffix', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    expect(labelsOf(family)).toEqual(['1', '2', '3']);
    expect(computeThreadSuffixes({ threads: family.rows().threads, nodes: [] })).toEqual({ [root]: '' });
  });

  it('gives branches of a path path-wide ordinals in creation order, whatever step they fork from', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 5);
    const atThree = family.branch(root, 3);
    family.turns(atThree, 2);
    const atTwo = family.branch(root, 2);
    family.turns(atTwo, 2);
    expect(labelsOfThread(family, atThree)).toEqual(['4.1', '5.1']);
    expect(labelsOfThread(family, atTwo)).toEqual(['3.2', '4.2']);
    expect(labelsOfThread(family, root)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('nests a branch of a branch (4.1.1)', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const alternative = family.branch(root, 2);
    family.turns(alternative, 2);
    const nested = family.branch(alternative, 3);
    family.turns(nested, 1);
    expect(labelsOfThread(family, alternative)).toEqual(['3.1', '4.1']);
    expect(labelsOfThread(family, nested)).toEqual(['4.1.1']);
  });

  it('continues the count from the tip, then flips to the reserved ordinal when the original continues', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const earlier = family.branch(root, 2);
    family.turns(earlier, 1);
    const tip = family.branch(root, 3);
    family.turns(tip, 2);
    expect(labelsOfThread(family, earlier)).toEqual(['3.1']);
    expect(labelsOfThread(family, tip)).toEqual(['4', '5']);

    family.turn(root);
    expect(labelsOfThread(family, root)).toEqual(['1', '2', '3', '4']);
    expect(labelsOfThread(family, tip)).toEqual(['4.2', '5.2']);
    expect(labelsOfThread(family, earlier)).toEqual(['3.1']);
  });

  it('re-roots the descendants of a flipped continuation under it without renumbering siblings', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const tip = family.branch(root, 3);
    family.turns(tip, 2);
    const tipOfTip = family.branch(tip, 5);
    family.turns(tipOfTip, 1);
    const offTip = family.branch(tip, 4);
    family.turns(offTip, 1);
    const offRoot = family.branch(root, 1);
    family.turns(offRoot, 1);
    expect(labelsOfThread(family, tip)).toEqual(['4', '5']);
    expect(labelsOfThread(family, tipOfTip)).toEqual(['6']);
    expect(labelsOfThread(family, offTip)).toEqual(['5.3']);
    expect(labelsOfThread(family, offRoot)).toEqual(['2.4']);

    family.turn(root);
    expect(labelsOfThread(family, tip)).toEqual(['4.1', '5.1']);
    expect(labelsOfThread(family, tipOfTip)).toEqual(['6.1']);
    expect(labelsOfThread(family, offTip)).toEqual(['5.1.3']);
    expect(labelsOfThread(family, offRoot)).toEqual(['2.4']);

    family.turn(tip);
    expect(labelsOfThread(family, tipOfTip)).toEqual(['6.1.2']);
    expect(labelsOfThread(family, tip)).toEqual(['4.1', '5.1', '6.1']);
  });

  it('shares one ordinal counter along a tip-continuation chain, so its branches never collide', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const tip = family.branch(root, 3);
    const alternative = family.branch(root, 2);
    family.turns(alternative, 4);
    family.turns(tip, 3);
    const offTipAtFour = family.branch(tip, 4);
    family.turns(offTipAtFour, 1);
    const offTipAtFive = family.branch(tip, 5);
    family.turns(offTipAtFive, 1);
    expect(labelsOfThread(family, alternative)).toEqual(['3.2', '4.2', '5.2', '6.2']);
    expect(labelsOfThread(family, tip)).toEqual(['4', '5', '6']);
    expect(labelsOfThread(family, offTipAtFour)).toEqual(['5.3']);
    expect(labelsOfThread(family, offTipAtFive)).toEqual(['6.4']);
  });

  it('lets the first visible alternative be .2 when a tip continuation reserved .1', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const tip = family.branch(root, 3);
    const past = family.branch(root, 2);
    family.turns(past, 1);
    expect(labelsOfThread(family, past)).toEqual(['3.2']);
    expect(computeThreadSuffixes({ threads: family.rows().threads, nodes: family.rows().turns })[tip]).toBe(
      '',
    );
  });

  it('treats only the first fork at the tip as a continuation; a second one is an alternative', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const first = family.branch(root, 3);
    family.turns(first, 1);
    const second = family.branch(root, 3);
    family.turns(second, 1);
    expect(labelsOfThread(family, first)).toEqual(['4']);
    expect(labelsOfThread(family, second)).toEqual(['4.2']);
    family.turn(root);
    expect(labelsOfThread(family, first)).toEqual(['4.1']);
    expect(labelsOfThread(family, second)).toEqual(['4.2']);
  });

  it('treats a fork from the empty start of an empty root as a continuation (1, then 1.1)', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    const fromStart = family.branch(root, 0);
    family.turns(fromStart, 1);
    expect(labelsOfThread(family, fromStart)).toEqual(['1']);
    family.turn(root);
    expect(labelsOfThread(family, fromStart)).toEqual(['1.1']);
    expect(labelsOfThread(family, root)).toEqual(['1']);
  });

  it('treats a fork from the empty start of a root with turns as an alternative first step', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const retry = family.branch(root, 0);
    family.turns(retry, 1);
    expect(labelsOfThread(family, retry)).toEqual(['1.1']);
  });

  it('does not depend on the order of the rows', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 4);
    const a = family.branch(root, 2);
    family.turns(a, 2);
    family.branch(a, 3);
    const { threads, turns } = family.rows();
    expect(computeThreadSuffixes({ threads: [...threads].reverse(), nodes: [...turns].reverse() })).toEqual(
      computeThreadSuffixes({ threads, nodes: turns }),
    );
  });

  it('places a parent before its child even when the child claims to be older', () => {
    const threads = [
      { thread_id: 'b', parent_thread_id: 'a', branch_point_turn: 1, created_at: '2025-01-01T00:00:00Z' },
      { thread_id: 'a', parent_thread_id: null, branch_point_turn: null, created_at: '2025-01-02T00:00:00Z' },
    ];
    const nodes = [
      { thread_id: 'a', turn_index: 1, captured_at: '2025-01-02T00:00:01Z' },
      { thread_id: 'a', turn_index: 2, captured_at: '2025-01-02T00:00:02Z' },
    ];
    expect(computeThreadSuffixes({ threads, nodes })).toEqual({ a: '', b: '.1' });
  });
});
