// `[` / `]` and Alt+↑ / Alt+↓ on the trajectory: jumps between the fork points of the displayed
// path, and switches to a sibling path at one. A fork point is a step with more than one outgoing
// link (the paths that branched after it). Pure over the navigation index the canvas builds.
import type { NavigationIndex } from './keyboard-navigation';
import type { TrajectoryLayout } from './trajectory-layout';

export interface ForkView {
  readonly nav: NavigationIndex;
  readonly isDisplayed: (id: string) => boolean;
  readonly threadOf: (id: string) => string | undefined;
}

function viewOf(layout: TrajectoryLayout, nav: NavigationIndex): ForkView {
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  return {
    nav,
    isDisplayed: (id) => byId.get(id)?.data.isDisplayed ?? false,
    threadOf: (id) => byId.get(id)?.data.thread_id,
  };
}

function isFork(nav: NavigationIndex, id: string): boolean {
  return (nav.outgoing.get(id)?.length ?? 0) > 1;
}

/** The displayed path's fork point before (-1) or after (+1) `fromId`'s step; null at the end. */
export function nextFork(view: ForkView, fromId: string, direction: 1 | -1): string | null {
  const from = view.nav.steps.get(fromId);
  if (from === undefined) return null;
  const forks = [...view.nav.steps.values()]
    .filter((step) => view.isDisplayed(step.id) && isFork(view.nav, step.id))
    .sort((a, b) => a.turn - b.turn);
  const found = direction === 1 ? forks.find((s) => s.turn > from.turn) : forks.findLast((s) => s.turn < from.turn);
  return found?.id ?? null;
}

/**
 * The thread of the sibling path below (+1) or above (-1) the displayed one at the fork `atId` is
 * (or, for the first step after a fork, the fork it follows); null when there is none that way.
 */
export function siblingThread(view: ForkView, atId: string, direction: 1 | -1): string | null {
  const fork = isFork(view.nav, atId) ? atId : view.nav.incoming.get(atId);
  if (fork === undefined || !isFork(view.nav, fork)) return null;
  const children = [...(view.nav.outgoing.get(fork) ?? [])].sort(
    (a, b) => (view.nav.steps.get(a)?.lane ?? 0) - (view.nav.steps.get(b)?.lane ?? 0),
  );
  const shown = children.findIndex((id) => view.isDisplayed(id));
  const target = children[(shown === -1 ? (direction === 1 ? -1 : children.length) : shown) + direction];
  return target === undefined ? null : (view.threadOf(target) ?? null);
}

export function adjacentFork(layout: TrajectoryLayout, nav: NavigationIndex, fromId: string, direction: 1 | -1) {
  return nextFork(viewOf(layout, nav), fromId, direction);
}

export function siblingPathAt(layout: TrajectoryLayout, nav: NavigationIndex, atId: string, direction: 1 | -1) {
  return siblingThread(viewOf(layout, nav), atId, direction);
}
