import { describe, expect, it } from 'vitest';
import { frameChosenViewport, initialViewport, READABLE_ZOOM, rectOnScreen, revealViewport, visibleIds, type FlowViewport } from './viewport';

const toScreen = (viewport: FlowViewport, x: number, y: number) => ({
  x: x * viewport.zoom + viewport.x,
  y: y * viewport.zoom + viewport.y,
});

describe('initialViewport', () => {
  const size = { width: 800, height: 240 };
  const base = { size, padding: 20, minZoom: 0.7, maxZoom: 1, focus: null };

  it('centres a small family at zoom 1 rather than blowing it up', () => {
    const viewport = initialViewport({ ...base, bounds: { x: 200, y: 0, width: 400, height: 100 } });
    expect(viewport.zoom).toBe(1);
    expect(toScreen(viewport, 200, 0)).toEqual({ x: 200, y: 70 });
  });

  it('zooms out to fit a family that fits at a readable zoom', () => {
    const viewport = initialViewport({ ...base, bounds: { x: 0, y: 0, width: 1000, height: 150 } });
    expect(viewport.zoom).toBeCloseTo(0.76, 5);
    expect(toScreen(viewport, 0, 0).x).toBeCloseTo(20, 5);
    expect(toScreen(viewport, 1000, 0).x).toBeCloseTo(780, 5);
  });

  it('stays readable and frames the focus step when the family is too big to fit', () => {
    const bounds = { x: 0, y: 0, width: 10_000, height: 2_000 };
    const focus = { x: 5_000, y: 1_000, width: 180, height: 70 };
    const viewport = initialViewport({ ...base, bounds, focus });
    expect(viewport.zoom).toBe(0.7);
    const topLeft = toScreen(viewport, focus.x, focus.y);
    const bottomRight = toScreen(viewport, focus.x + focus.width, focus.y + focus.height);
    expect(topLeft.x).toBeGreaterThan(0);
    expect(bottomRight.x).toBeLessThan(size.width);
    expect(topLeft.y).toBeGreaterThan(0);
    expect(bottomRight.y).toBeLessThan(size.height);
    // Right of centre: the steps that led here are in view.
    expect(topLeft.x).toBeGreaterThan(size.width / 2);
  });

  it('never scrolls past the edge of the family to frame a focus step near it', () => {
    const bounds = { x: 0, y: 0, width: 10_000, height: 2_000 };
    const focus = { x: 9_820, y: 1_930, width: 180, height: 70 };
    const viewport = initialViewport({ ...base, bounds, focus });
    const end = toScreen(viewport, 10_000, 2_000);
    expect(end.x).toBeCloseTo(size.width - 20, 5);
    expect(end.y).toBeCloseTo(size.height - 20, 5);
  });

  it('falls back to zoom 1 at the padding for an empty family or an unmeasured container', () => {
    expect(initialViewport({ ...base, bounds: { x: 0, y: 0, width: 0, height: 0 } })).toEqual({
      x: 20,
      y: 20,
      zoom: 1,
    });
    expect(
      initialViewport({
        ...base,
        size: { width: 0, height: 0 },
        bounds: { x: 0, y: 0, width: 10, height: 10 },
      }),
    ).toEqual({
      x: 20,
      y: 20,
      zoom: 1,
    });
  });
});

describe('revealViewport', () => {
  const size = { width: 600, height: 200 };
  const viewport = { x: 0, y: 0, zoom: 1 };

  it('leaves the view alone when the step is already in view', () => {
    expect(revealViewport(viewport, size, { x: 100, y: 50, width: 100, height: 60 }, 16)).toBeNull();
  });

  it('pans just enough to bring a step in from the right or from below', () => {
    expect(revealViewport(viewport, size, { x: 700, y: 50, width: 100, height: 60 }, 16)).toEqual({
      x: -216,
      y: 0,
      zoom: 1,
    });
    expect(revealViewport(viewport, size, { x: 100, y: 300, width: 100, height: 60 }, 16)).toEqual({
      x: 0,
      y: -176,
      zoom: 1,
    });
  });

  it('pans just enough to bring a step in from the left or from above, at any zoom', () => {
    const zoomed = { x: -1000, y: -400, zoom: 0.5 };
    const next = revealViewport(zoomed, size, { x: 1000, y: 400, width: 100, height: 60 }, 10);
    expect(next).toEqual({ x: -490, y: -190, zoom: 0.5 });
  });
});

describe('visibleIds', () => {
  it('keeps the rects that overlap the screen, even partly', () => {
    const items = [
      { id: 'inside', rect: { x: 10, y: 10, width: 50, height: 20 } },
      { id: 'partly', rect: { x: 580, y: 10, width: 50, height: 20 } },
      { id: 'right', rect: { x: 620, y: 10, width: 50, height: 20 } },
      { id: 'below', rect: { x: 10, y: 250, width: 50, height: 20 } },
    ];
    expect(visibleIds(items, { x: 0, y: 0, zoom: 1 }, { width: 600, height: 200 })).toEqual([
      'inside',
      'partly',
    ]);
    expect(visibleIds(items, { x: 0, y: 0, zoom: 0.5 }, { width: 600, height: 200 })).toEqual([
      'inside',
      'partly',
      'right',
      'below',
    ]);
  });
});

describe('rectOnScreen', () => {
  it('scales a flow rect by the zoom and shifts it by the pan', () => {
    expect(rectOnScreen({ x: 10, y: -20, zoom: 0.5 }, { x: 100, y: 40, width: 184, height: 72 })).toEqual({
      x: 60,
      y: 0,
      width: 92,
      height: 36,
    });
  });
});

describe('frameChosenViewport', () => {
  const size = { width: 800, height: 300 };
  const rect = { x: 2000, y: 188, width: 220, height: 72 };

  it('zooms a chosen step up to the readable zoom, centred, from an overview or a fitted family', () => {
    const next = frameChosenViewport({ x: 0, y: 0, zoom: 0.59 }, size, rect, 24)!;
    expect(next.zoom).toBe(READABLE_ZOOM);
    const onScreen = rectOnScreen(next, rect);
    expect(onScreen.x + onScreen.width / 2).toBeCloseTo(size.width / 2);
    expect(onScreen.y + onScreen.height / 2).toBeCloseTo(size.height / 2);
  });

  it('only pans at a readable zoom, and leaves a step already in view alone', () => {
    const panned = frameChosenViewport({ x: 0, y: 0, zoom: 1 }, size, rect, 24)!;
    expect(panned.zoom).toBe(1);
    const onScreen = rectOnScreen(panned, rect);
    expect(onScreen.x).toBeGreaterThanOrEqual(24);
    expect(onScreen.x + onScreen.width).toBeLessThanOrEqual(size.width - 24);
    expect(frameChosenViewport(panned, size, rect, 24)).toBeNull();
  });
});
