import { assembleFamilyGraph, regeneratedTitle } from '@trellis/domain';
import { FamilyBuilder } from '@trellis/domain/graph/testing';
import { describe, expect, it } from 'vitest';
import {
  collapsedForksKey,
  displayedNodeAt,
  FIT_PADDING,
  fitOverview,
  framesEveryStep,
  isOverviewZoom,
  OVERVIEW_MIN_ZOOM,
  OVERVIEW_STEP_PX,
  parseCollapsedForks,
  shouldFollowChat,
  startsAsStrip,
  stepInView,
  toggled,
} from './overview';
import { layoutTrajectory, STEP_GAP } from './trajectory-layout';
import { READABLE_ZOOM } from './viewport';

/** One path of `depth` steps with `paths − 1` branches spread along it (each two steps long). */
function family(depth: number, paths: number) {
  const f = new FamilyBuilder();
  const root = f.root();
  f.turns(root, depth);
  for (let i = 1; i < paths; i++) {
    const b = f.branch(root, Math.min(depth - 1, Math.round((i * depth) / paths)));
    f.turns(b, 2);
  }
  const graph = assembleFamilyGraph({ requestedThreadId: root, ...f.rows(), maxNodes: 100_000 });
  return { root, graph, layout: layoutTrajectory(graph, { displayedThreadId: root, currentNodeId: null }) };
}

describe('fitOverview ("Fit view")', () => {
  it('frames every step of a family that fits at one step per ~24 px, going below the readable zoom', () => {
    const { layout } = family(40, 13);
    const size = { width: 1440, height: 260 - 36 };
    const viewport = fitOverview(layout, size, null);
    expect(viewport.zoom).toBeLessThan(READABLE_ZOOM);
    expect(isOverviewZoom(viewport.zoom)).toBe(true);
    expect(framesEveryStep(layout, viewport, size)).toBe(true);
    expect(viewport.zoom * STEP_GAP).toBeGreaterThanOrEqual(OVERVIEW_STEP_PX);
  });

  it('a family that fits readably is fitted at a readable zoom (no overview), never above full size', () => {
    const { layout } = family(4, 2);
    const viewport = fitOverview(layout, { width: 1440, height: 800 }, null);
    expect(viewport.zoom).toBeLessThanOrEqual(1);
    expect(isOverviewZoom(viewport.zoom)).toBe(false);
    expect(framesEveryStep(layout, viewport, { width: 1440, height: 800 })).toBe(true);
  });

  it('stops at the overview floor for a family too long for the panel, framing the focus step', () => {
    const { layout } = family(400, 2);
    const size = { width: 1000, height: 400 };
    const focus = layout.nodes.at(-1)!;
    const viewport = fitOverview(layout, size, { ...focus.position, width: focus.width!, height: focus.height! });
    expect(viewport.zoom).toBeCloseTo(OVERVIEW_MIN_ZOOM);
    expect(framesEveryStep(layout, viewport, size)).toBe(false);
    const x = focus.position.x * viewport.zoom + viewport.x;
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x).toBeLessThanOrEqual(size.width);
  });

  it('on a phone, keeps every card in view when the cards fit at the floor, and gives the lane names the room left of them', () => {
    const size = { width: 390, height: 844 - 120 };
    let tried = 0;
    for (let depth = 4; depth <= 24; depth++) {
      const { layout } = family(depth, 3);
      if (layout.bounds.width * OVERVIEW_MIN_ZOOM > size.width - 2 * FIT_PADDING) continue;
      tried++;
      // framed on the step the chat shows, as the studio asks: here the newest
      const focus = layout.nodes.at(-1)!;
      const viewport = fitOverview(layout, size, { ...focus.position, width: focus.width!, height: focus.height! });
      expect(framesEveryStep(layout, viewport, size), `depth ${depth}`).toBe(true);
      const firstX = layout.bounds.x * viewport.zoom + viewport.x;
      const room = Math.min(STEP_GAP * viewport.zoom, size.width - FIT_PADDING - layout.bounds.width * viewport.zoom);
      expect(firstX, `depth ${depth}`).toBeGreaterThanOrEqual(room - 0.5);
    }
    expect(tried).toBeGreaterThan(5);
  });

  it('on a phone, a family wider than the screen at the floor keeps every card on screen while they fit, else starts at its lane names when the focus allows', () => {
    const size = { width: 390, height: 844 - 120 };
    const at = (layout: ReturnType<typeof family>['layout'], viewport: { x: number; zoom: number }, x: number) => x * viewport.zoom + viewport.x;
    const cases = { fitsTight: 0, cardsFit: 0, wider: 0 };
    for (let depth = 10; depth <= 24; depth++) {
      const { layout } = family(depth, 13);
      const z = OVERVIEW_MIN_ZOOM;
      const cards = layout.bounds.width * z;
      const withNames = cards + STEP_GAP * z;
      if (withNames + 2 * FIT_PADDING <= size.width) continue;
      // the step the chat shows: the eighth of the root path
      const focus = layout.nodes.find((node) => node.data.turn_index === 8 && node.data.isDisplayed)!;
      const viewport = fitOverview(layout, size, { ...focus.position, width: focus.width!, height: focus.height! });
      expect(viewport.zoom).toBeCloseTo(z);
      const bandX = at(layout, viewport, layout.bounds.x - STEP_GAP);
      const firstX = at(layout, viewport, layout.bounds.x);
      if (withNames <= size.width) {
        cases.fitsTight++;
        expect(framesEveryStep(layout, viewport, size), `depth ${depth}`).toBe(true);
        expect(bandX, `depth ${depth}`).toBeGreaterThanOrEqual(0);
      } else if (cards < size.width - 8) {
        cases.cardsFit++;
        expect(framesEveryStep(layout, viewport, size), `depth ${depth}`).toBe(true);
        expect(firstX, `depth ${depth}: the names' room`).toBeCloseTo(size.width - 8 - cards);
      } else {
        cases.wider++;
        expect(bandX, `depth ${depth}`).toBeCloseTo(FIT_PADDING);
        expect(at(layout, viewport, focus.position.x + focus.width!), `depth ${depth}`).toBeLessThanOrEqual(size.width - FIT_PADDING);
      }
    }
    expect(cases.fitsTight).toBeGreaterThan(0);
    expect(cases.cardsFit).toBeGreaterThan(0);
    expect(cases.wider).toBeGreaterThan(0);
    // the newest step of a much longer path is too far right for the start: the frame follows it instead
    const far = family(30, 13).layout;
    const last = far.nodes.at(-1)!;
    const followed = fitOverview(far, size, { ...last.position, width: last.width!, height: last.height! });
    const lastX = at(far, followed, last.position.x);
    expect(lastX).toBeGreaterThanOrEqual(0);
    expect(lastX + last.width! * followed.zoom).toBeLessThanOrEqual(size.width);
  });

  it('leaves room left of the first step for the name of the lane that starts there', () => {
    const { layout } = family(12, 2);
    const size = { width: 800, height: 200 };
    const viewport = fitOverview(layout, size, null);
    const firstX = layout.bounds.x * viewport.zoom + viewport.x;
    expect(firstX).toBeGreaterThanOrEqual(STEP_GAP * viewport.zoom);
  });
});

describe('fitOverview on one linear path', () => {
  it('keeps a 25-step path readable, framed on the focus step, rather than a ribbon of labels', () => {
    const { layout } = family(25, 1);
    const size = { width: 1000, height: 300 };
    const focus = layout.nodes.at(-1)!;
    const viewport = fitOverview(layout, size, { ...focus.position, width: focus.width!, height: focus.height! });
    expect(viewport.zoom).toBeCloseTo(READABLE_ZOOM);
    expect(isOverviewZoom(viewport.zoom)).toBe(false);
    // The rest of the path is a scroll away; the focus step is on screen.
    expect(framesEveryStep(layout, viewport, size)).toBe(false);
    const x = focus.position.x * viewport.zoom + viewport.x;
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + focus.width! * viewport.zoom).toBeLessThanOrEqual(size.width);
  });

  it('still fits a short path whole, and gives a family of two lanes its overview', () => {
    expect(fitOverview(family(3, 1).layout, { width: 1000, height: 300 }, null).zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(isOverviewZoom(fitOverview(family(25, 2).layout, { width: 1000, height: 300 }, null).zoom)).toBe(true);
  });
});

describe('following the chat', () => {
  it('frames the earliest step in view, and waits while the person has just moved the map', () => {
    expect(stepInView([5, 3, 4])).toBe(3);
    expect(stepInView([])).toBeNull();
    expect(shouldFollowChat(10_000, null)).toBe(true);
    expect(shouldFollowChat(10_000, 8_000)).toBe(false);
    expect(shouldFollowChat(10_000, 5_000)).toBe(true);
  });

  it('maps the step to the displayed path’s node at that step', () => {
    const { root, layout } = family(6, 3);
    expect(displayedNodeAt(layout, 3)).toBe(`${root}:3`);
    expect(displayedNodeAt(layout, 99)).toBeNull();
  });
});

describe('folded forks and stacks in the layout', () => {
  it('remembers folds as a list per family, and reads anything else as none', () => {
    expect(collapsedForksKey('th_a')).not.toBe(collapsedForksKey('th_b'));
    expect([...parseCollapsedForks(JSON.stringify(['a:1', 2, 'b:3']))]).toEqual(['a:1', 'b:3']);
    expect(parseCollapsedForks('{oops').size).toBe(0);
    expect(parseCollapsedForks(null).size).toBe(0);
    expect([...toggled(toggled(new Set(['x']), 'y'), 'x')]).toEqual(['y']);
  });

  it('three regenerations of a reply are one card with a stack of 3 and take no lane until expanded', () => {
    const f = new FamilyBuilder();
    const root = f.root();
    f.turns(root, 4);
    const alts = [1, 2, 3].map(() => {
      const id = f.branch(root, 2, 'regenerate', regeneratedTitle(3));
      f.turn(id, { user_message: `message 3 of ${root}` });
      return id;
    });
    const graph = assembleFamilyGraph({ requestedThreadId: root, ...f.rows() });
    const stacked = layoutTrajectory(graph, { displayedThreadId: root, currentNodeId: null });
    const card = stacked.nodeById.get(`${root}:3`);
    expect(card?.type === 'commit' && card.data.stackedReplies).toBe(3);
    expect(new Set(stacked.nodes.map((n) => n.data.lane))).toEqual(new Set([0]));
    const open = layoutTrajectory(graph, { displayedThreadId: root, currentNodeId: null, expandedStacks: new Set([`${root}:3`]) });
    expect(new Set(open.nodes.map((n) => n.data.lane)).size).toBe(4);
    expect(open.bounds.height).toBeGreaterThan(stacked.bounds.height);
    expect(alts.every((id) => open.nodes.some((n) => n.data.thread_id === id))).toBe(true);
  });

  it('a folded fork takes its lanes off the map', () => {
    const { root, graph } = family(10, 4);
    const all = layoutTrajectory(graph, { displayedThreadId: root, currentNodeId: null });
    const forkId = all.nodes.find((n) => n.type === 'commit' && n.data.branchCount > 0)!.id;
    const folded = layoutTrajectory(graph, { displayedThreadId: root, currentNodeId: null, collapsedForks: new Set([forkId]) });
    expect(folded.bounds.height).toBeLessThan(all.bounds.height);
    const fork = folded.nodeById.get(forkId);
    expect(fork?.type === 'commit' && fork.data.collapsedBranches).toBe(1);
  });
});

describe('the phone', () => {
  it('starts as a strip below the md breakpoint only', () => {
    expect(startsAsStrip(390)).toBe(true);
    expect(startsAsStrip(1440)).toBe(false);
  });
});
