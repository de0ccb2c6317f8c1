/**
 * Arrow-key movement between the steps of the trajectory (the trajectory panel): ←/→ walk along a thread
 * and across the edge that links it to its parent or its children; ↑/↓ jump to the adjacent lane at
 * the nearest turn; Home/End go to the ends of the lane. Pure: the panel feeds it the layout.
 */
import { isProvenanceEdge } from '@trellis/domain';

export interface NavStep {
  readonly id: string;
  readonly lane: number;
  readonly turn: number;
}

export interface NavLink {
  readonly source: string;
  readonly target: string;
  /** An `apply` link joins two steps without being a parent link: arrow keys do not follow it. */
  readonly data?: { readonly kind?: string } | undefined;
}

export type NavDirection = 'left' | 'right' | 'up' | 'down' | 'first' | 'last';

export interface NavigationIndex {
  readonly steps: ReadonlyMap<string, NavStep>;
  /** Steps of each lane, ascending by turn. */
  readonly lanes: ReadonlyMap<number, readonly NavStep[]>;
  /** Lane numbers in ascending order. */
  readonly laneOrder: readonly number[];
  readonly incoming: ReadonlyMap<string, string>;
  /** Targets of each step's outgoing links, nearest lane first. */
  readonly outgoing: ReadonlyMap<string, readonly string[]>;
}

const KEY_DIRECTIONS: Readonly<Record<string, NavDirection>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'first',
  End: 'last',
};

export function directionForKey(key: string): NavDirection | null {
  return KEY_DIRECTIONS[key] ?? null;
}

export function buildNavigationIndex(steps: readonly NavStep[], links: readonly NavLink[]): NavigationIndex {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const lanes = new Map<number, NavStep[]>();
  for (const step of steps) {
    const lane = lanes.get(step.lane) ?? [];
    lane.push(step);
    lanes.set(step.lane, lane);
  }
  for (const lane of lanes.values()) lane.sort((a, b) => a.turn - b.turn);

  const incoming = new Map<string, string>();
  const outgoing = new Map<string, string[]>();
  for (const link of links) {
    if (isProvenanceEdge(link.data?.kind)) continue;
    const source = byId.get(link.source);
    if (source === undefined || !byId.has(link.target)) continue;
    incoming.set(link.target, link.source);
    const targets = outgoing.get(link.source) ?? [];
    targets.push(link.target);
    outgoing.set(link.source, targets);
  }
  for (const [sourceId, targets] of outgoing) {
    const sourceLane = byId.get(sourceId)?.lane ?? 0;
    const distance = (id: string) => Math.abs((byId.get(id)?.lane ?? 0) - sourceLane);
    targets.sort((a, b) => distance(a) - distance(b) || (byId.get(a)?.lane ?? 0) - (byId.get(b)?.lane ?? 0));
  }
  return {
    steps: byId,
    lanes,
    laneOrder: [...lanes.keys()].sort((a, b) => a - b),
    incoming,
    outgoing,
  };
}

/** The step reached from `fromId` in `direction`; `fromId` itself when there is nowhere to go. */
export function navigate(index: NavigationIndex, fromId: string, direction: NavDirection): string {
  const from = index.steps.get(fromId);
  if (from === undefined) return fromId;
  const lane = index.lanes.get(from.lane) ?? [];
  const position = lane.findIndex((step) => step.id === fromId);
  switch (direction) {
    case 'left':
      return lane[position - 1]?.id ?? index.incoming.get(fromId) ?? fromId;
    case 'right':
      return lane[position + 1]?.id ?? index.outgoing.get(fromId)?.[0] ?? fromId;
    case 'first':
      return lane[0]?.id ?? fromId;
    case 'last':
      return lane.at(-1)?.id ?? fromId;
    case 'up':
    case 'down': {
      const at = index.laneOrder.indexOf(from.lane);
      const neighbour = index.laneOrder[direction === 'up' ? at - 1 : at + 1];
      if (neighbour === undefined) return fromId;
      return nearestTurn(index.lanes.get(neighbour) ?? [], from.turn)?.id ?? fromId;
    }
  }
}

/** The step of `lane` whose turn is closest to `turn`; on a tie, the earlier one. */
export function nearestTurn(lane: readonly NavStep[], turn: number): NavStep | undefined {
  let best: NavStep | undefined;
  for (const step of lane) {
    if (best === undefined || Math.abs(step.turn - turn) < Math.abs(best.turn - turn)) best = step;
  }
  return best;
}

/** Where keyboard focus lands first: the first candidate that is a step (e.g. "you are here", then the tip). */
export function firstPresent(
  index: NavigationIndex,
  candidates: readonly (string | null | undefined)[],
): string | null {
  for (const candidate of candidates) {
    if (candidate != null && index.steps.has(candidate)) return candidate;
  }
  return index.laneOrder.length > 0 ? (index.lanes.get(index.laneOrder[0] ?? 0)?.[0]?.id ?? null) : null;
}
