import { describe, expect, it } from 'vitest';
import { buildNavigationIndex } from './keyboard-navigation';
import { nextFork, siblingThread, type ForkView } from './fork-keys';

// Lane 0 (displayed): a1 → a2 → a3 → a4; lane 1 branches after a1 (b2), lane 2 after a3 (c4),
// lane 3 after a3 too (d4).
const steps = [
  { id: 'a1', lane: 0, turn: 1 },
  { id: 'a2', lane: 0, turn: 2 },
  { id: 'a3', lane: 0, turn: 3 },
  { id: 'a4', lane: 0, turn: 4 },
  { id: 'b2', lane: 1, turn: 2 },
  { id: 'c4', lane: 2, turn: 4 },
  { id: 'd4', lane: 3, turn: 4 },
];
const links = [
  { source: 'a1', target: 'a2' },
  { source: 'a2', target: 'a3' },
  { source: 'a3', target: 'a4' },
  { source: 'a1', target: 'b2' },
  { source: 'a3', target: 'c4' },
  { source: 'a3', target: 'd4' },
];
const view: ForkView = {
  nav: buildNavigationIndex(steps, links),
  isDisplayed: (id) => id.startsWith('a'),
  threadOf: (id) => `thread-${id[0]}`,
};

describe('fork keys on the trajectory', () => {
  it('] and [ step between the fork points of the displayed path', () => {
    expect(nextFork(view, 'a4', -1)).toBe('a3');
    expect(nextFork(view, 'a3', -1)).toBe('a1');
    expect(nextFork(view, 'a1', -1)).toBeNull();
    expect(nextFork(view, 'a1', 1)).toBe('a3');
    expect(nextFork(view, 'a3', 1)).toBeNull();
  });

  it('Alt+Down and Alt+Up name the sibling path below and above the displayed one at a fork', () => {
    expect(siblingThread(view, 'a3', 1)).toBe('thread-c');
    expect(siblingThread(view, 'a3', -1)).toBeNull();
    // From the first step after the fork, too.
    expect(siblingThread(view, 'a4', 1)).toBe('thread-c');
    expect(siblingThread(view, 'a1', 1)).toBe('thread-b');
    expect(siblingThread(view, 'a2', 1)).toBe('thread-b');
    // The displayed path is the topmost sibling after a1: nothing above it.
    expect(siblingThread(view, 'a2', -1)).toBeNull();
  });
});
