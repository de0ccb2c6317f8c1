/**
 * Viewport arithmetic for the panel, in React Flow's convention: a flow point p is drawn at
 * `p × zoom + (x, y)` on screen. Pure, so the first frame's viewport and the "keep this step in view"
 * rule are tested without a browser.
 */
import type { Rect } from './trajectory-layout';

/**
 * The zoom floor: card text is 11 px, so below 0.7 it falls under 7.5 px and stops being readable.
 * The first view, every refit, "fit view" and zooming out all stop here.
 */
export const READABLE_ZOOM = 0.7;

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface FlowViewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

export interface InitialViewportOptions {
  /** Every card. */
  readonly bounds: Rect;
  readonly size: Size;
  /** The step to keep in view when the family does not fit: "you are here", or the displayed tip. */
  readonly focus: Rect | null;
  /** Screen pixels kept free around the fitted family. */
  readonly padding: number;
  /** Below this zoom cards are unreadable: zoom stops here and the view frames `focus` instead. */
  readonly minZoom: number;
  readonly maxZoom: number;
}

/**
 * Fit the whole family when it fits at a readable zoom; otherwise stay readable and frame the focus
 * step (a little right of centre, so the steps that led to it are visible), never scrolling past the
 * family's edges.
 */
export function initialViewport(options: InitialViewportOptions): FlowViewport {
  const { bounds, size, padding } = options;
  if (bounds.width <= 0 || bounds.height <= 0 || size.width <= 0 || size.height <= 0) {
    return { x: padding, y: padding, zoom: 1 };
  }
  const fitZoom = Math.min(
    (size.width - 2 * padding) / bounds.width,
    (size.height - 2 * padding) / bounds.height,
  );
  const zoom = clamp(fitZoom, options.minZoom, options.maxZoom);
  const viewWidth = size.width / zoom;
  const viewHeight = size.height / zoom;
  const pad = padding / zoom;
  const focus = fitZoom >= options.minZoom ? null : options.focus;
  const left = focus
    ? clampToExtent(
        focus.x + focus.width / 2 - 0.65 * viewWidth,
        bounds.x - pad,
        bounds.x + bounds.width + pad,
        viewWidth,
      )
    : bounds.x + bounds.width / 2 - viewWidth / 2;
  const top = focus
    ? clampToExtent(
        focus.y + focus.height / 2 - viewHeight / 2,
        bounds.y - pad,
        bounds.y + bounds.height + pad,
        viewHeight,
      )
    : bounds.y + bounds.height / 2 - viewHeight / 2;
  return { x: -left * zoom, y: -top * zoom, zoom };
}

/**
 * The smallest pan (same zoom) that brings `rect` fully into view with `margin` screen pixels around
 * it; null when it is already in view. A rect larger than the view is aligned to its top-left corner.
 */
export function revealViewport(
  viewport: FlowViewport,
  size: Size,
  rect: Rect,
  margin: number,
): FlowViewport | null {
  const dx = revealShift(rect.x * viewport.zoom + viewport.x, rect.width * viewport.zoom, size.width, margin);
  const dy = revealShift(
    rect.y * viewport.zoom + viewport.y,
    rect.height * viewport.zoom,
    size.height,
    margin,
  );
  if (dx === 0 && dy === 0) return null;
  return { x: viewport.x + dx, y: viewport.y + dy, zoom: viewport.zoom };
}

/**
 * A step someone chose (a sibling path, a restored step, a search hit, a chat link): in view and
 * readable. Below the readable zoom (the overview, a fitted family) the view zooms in to it, centred
 * on the step, so its text shows; at a readable zoom it is {@link revealViewport}'s smallest pan.
 */
export function frameChosenViewport(
  viewport: FlowViewport,
  size: Size,
  rect: Rect,
  margin: number,
): FlowViewport | null {
  if (viewport.zoom >= READABLE_ZOOM - 1e-6) return revealViewport(viewport, size, rect, margin);
  const zoom = READABLE_ZOOM;
  return {
    x: size.width / 2 - (rect.x + rect.width / 2) * zoom,
    y: size.height / 2 - (rect.y + rect.height / 2) * zoom,
    zoom,
  };
}

/** Where a flow-space rect is drawn on screen under `viewport`. */
export function rectOnScreen(viewport: FlowViewport, rect: Rect): Rect {
  return {
    x: rect.x * viewport.zoom + viewport.x,
    y: rect.y * viewport.zoom + viewport.y,
    width: rect.width * viewport.zoom,
    height: rect.height * viewport.zoom,
  };
}

/** Ids of the rects that overlap the screen at all (what `onlyRenderVisibleElements` renders). */
export function visibleIds(
  items: readonly { readonly id: string; readonly rect: Rect }[],
  viewport: FlowViewport,
  size: Size,
): string[] {
  const left = -viewport.x / viewport.zoom;
  const top = -viewport.y / viewport.zoom;
  const right = left + size.width / viewport.zoom;
  const bottom = top + size.height / viewport.zoom;
  return items
    .filter(
      ({ rect }) =>
        rect.x < right && rect.x + rect.width > left && rect.y < bottom && rect.y + rect.height > top,
    )
    .map(({ id }) => id);
}

function revealShift(start: number, length: number, available: number, margin: number): number {
  if (start < margin || length > available - 2 * margin) return margin - start;
  const end = start + length;
  if (end > available - margin) return available - margin - end;
  return 0;
}

/** Start of a window of `length` inside [min, max]; centred when the extent is shorter than the window. */
function clampToExtent(start: number, min: number, max: number, length: number): number {
  if (max - min <= length) return (min + max) / 2 - length / 2;
  return clamp(start, min, max - length);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
