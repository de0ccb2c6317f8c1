import { describe, expect, it } from 'vitest';
import {
  buildNavigationIndex,
  directionForKey,
  firstPresent,
  navigate,
  nearestTurn,
  type NavLink,
  type NavStep,
} from './keyboard-navigation';

/**
 * lane 0: r1 ─ r2 ─ r3 ─ r4
 *                 ╰─ lane 1: a3 ─ a4 ─ a5
 *                            ╰─ lane 2:      b5
 *                      ╰────── lane 3:           s5 (stub off r4)
 */
const steps: NavStep[] = [
  { id: 'r1', lane: 0, turn: 1 },
  { id: 'r2', lane: 0, turn: 2 },
  { id: 'r3', lane: 0, turn: 3 },
  { id: 'r4', lane: 0, turn: 4 },
  { id: 'a3', lane: 1, turn: 3 },
  { id: 'a4', lane: 1, turn: 4 },
  { id: 'a5', lane: 1, turn: 5 },
  { id: 'b5', lane: 2, turn: 5 },
  { id: 's5', lane: 3, turn: 5 },
];
const links: NavLink[] = [
  { source: 'r1', target: 'r2' },
  { source: 'r2', target: 'r3' },
  { source: 'r3', target: 'r4' },
  { source: 'r2', target: 'a3' },
  { source: 'a3', target: 'a4' },
  { source: 'a4', target: 'a5' },
  { source: 'a4', target: 'b5' },
  { source: 'r4', target: 's5' },
];
// Shuffled input: the index must not lean on the order it is given.
const index = buildNavigationIndex([...steps].reverse(), [...links].reverse());

describe('keyboard navigation', () => {
  it('maps arrows, Home and End to directions and ignores other keys', () => {
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].map(directionForKey)).toEqual([
      'left',
      'right',
      'up',
      'down',
      'first',
      'last',
    ]);
    expect(directionForKey('Enter')).toBeNull();
    expect(directionForKey('a')).toBeNull();
  });

  it('walks along a thread with ← and →', () => {
    expect(navigate(index, 'r2', 'right')).toBe('r3');
    expect(navigate(index, 'r3', 'left')).toBe('r2');
    expect(navigate(index, 'a4', 'right')).toBe('a5');
  });

  it('crosses to the parent at the start of a branch and to a child at the end of a lane', () => {
    expect(navigate(index, 'a3', 'left')).toBe('r2');
    expect(navigate(index, 'b5', 'left')).toBe('a4');
    expect(navigate(index, 'r4', 'right')).toBe('s5');
  });

  it('stays put where there is nowhere to go', () => {
    expect(navigate(index, 'r1', 'left')).toBe('r1');
    expect(navigate(index, 'a5', 'right')).toBe('a5');
    expect(navigate(index, 'r3', 'up')).toBe('r3');
    expect(navigate(index, 's5', 'down')).toBe('s5');
    expect(navigate(index, 'unknown', 'right')).toBe('unknown');
  });

  it('moves between lanes at the nearest turn with ↑ and ↓', () => {
    expect(navigate(index, 'r4', 'down')).toBe('a4');
    expect(navigate(index, 'r1', 'down')).toBe('a3');
    expect(navigate(index, 'a3', 'down')).toBe('b5');
    expect(navigate(index, 'b5', 'up')).toBe('a5');
    expect(navigate(index, 'a5', 'up')).toBe('r4');
    expect(navigate(index, 'b5', 'down')).toBe('s5');
  });

  it('jumps to the ends of the lane with Home and End', () => {
    expect(navigate(index, 'r2', 'first')).toBe('r1');
    expect(navigate(index, 'r2', 'last')).toBe('r4');
    expect(navigate(index, 'b5', 'first')).toBe('b5');
  });

  it('follows the child in the nearest lane first when a step forks at the end of its lane', () => {
    const forked = buildNavigationIndex(
      [
        { id: 'p1', lane: 0, turn: 1 },
        { id: 'far', lane: 3, turn: 2 },
        { id: 'near', lane: 1, turn: 2 },
      ],
      [
        { source: 'p1', target: 'far' },
        { source: 'p1', target: 'near' },
      ],
    );
    expect(navigate(forked, 'p1', 'right')).toBe('near');
  });

  it('skips lanes that hold no step when moving up and down', () => {
    const sparse = buildNavigationIndex(
      [
        { id: 'x', lane: 0, turn: 1 },
        { id: 'y', lane: 4, turn: 1 },
      ],
      [],
    );
    expect(navigate(sparse, 'x', 'down')).toBe('y');
    expect(navigate(sparse, 'y', 'up')).toBe('x');
  });

  it('prefers the earlier step when two turns are equally near', () => {
    const lane = [
      { id: 'early', lane: 1, turn: 2 },
      { id: 'late', lane: 1, turn: 4 },
    ];
    expect(nearestTurn(lane, 3)?.id).toBe('early');
    expect(nearestTurn([], 3)).toBeUndefined();
  });

  it('starts from the first candidate that is a step, else the first step of the top lane', () => {
    expect(firstPresent(index, [null, 'gone', 'a4'])).toBe('a4');
    expect(firstPresent(index, [undefined])).toBe('r1');
    expect(firstPresent(buildNavigationIndex([], []), ['r1'])).toBeNull();
  });
});

describe('apply links', () => {
  it('are not followed by the arrow keys: a step keeps its parent link when items were applied into it', () => {
    const withApply = buildNavigationIndex(steps, [...links, { source: 'a5', target: 'r4', data: { kind: 'apply' } }]);
    expect(withApply.incoming.get('r4')).toBe('r3');
    expect(navigate(withApply, 'r4', 'left')).toBe('r3');
    expect(withApply.outgoing.get('a5')).toBeUndefined();
  });
});
