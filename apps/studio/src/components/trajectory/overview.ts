/**
 * The map's overview (semantic zoom: a map that shows the whole family), as pure decisions:
 * below the readable zoom the cards are drawn as compact nodes (their step label on their path's
 * colour), and "Fit view" may zoom down to one step per ~24 screen px, so it frames every step of any
 * family that fits the panel at that density. Also: when the map follows the chat, which forks are
 * folded (remembered per family), and how much map a phone shows. No React, no DOM.
 */
import { LANE_GAP, STEP_GAP, type Rect, type TrajectoryLayout } from './trajectory-layout';
import { initialViewport, READABLE_ZOOM, type FlowViewport, type Size } from './viewport';

/** Screen pixels per step at the overview's floor. */
export const OVERVIEW_STEP_PX = 24;
/** The lowest zoom: one step per `OVERVIEW_STEP_PX`. */
export const OVERVIEW_MIN_ZOOM = OVERVIEW_STEP_PX / STEP_GAP;
/** How long after the person moved the map it stops following the chat. */
export const FOLLOW_HOLD_MS = 4000;
/** Screen pixels kept free around a fitted family. */
export const FIT_PADDING = 24;

/** Below the readable zoom the map is an overview: compact nodes. */
export function isOverviewZoom(zoom: number): boolean {
  return zoom < READABLE_ZOOM - 1e-6;
}

/**
 * What "Fit view" frames: every card, plus one step's width to the left of the leftmost one, where the
 * overview writes the name of a lane that starts there (a lane's name sits left of its first node).
 */
export function overviewBounds(bounds: Rect): Rect {
  if (bounds.width <= 0 || bounds.height <= 0) return bounds;
  return { x: bounds.x - STEP_GAP, y: bounds.y, width: bounds.width + STEP_GAP, height: bounds.height };
}

/**
 * "Fit view": the whole family, as large as the panel allows (at most full size), down to the
 * overview's floor; a family too large even there is framed around `focus` at the floor. A family
 * that fits readably is framed on its cards alone; on the overview, the room for the first lane's
 * name is framed too. A single path (one lane) has no shape for an overview to show: shrinking it
 * only makes a thin ribbon of labels, so it stays at the readable zoom and is framed around `focus`,
 * the rest of the path a scroll away.
 */
export function fitOverview(layout: Pick<TrajectoryLayout, 'bounds'>, size: Size, focus: Rect | null): FlowViewport {
  const fit = (bounds: Rect, minZoom: number) =>
    initialViewport({ bounds, size, focus, padding: FIT_PADDING, minZoom, maxZoom: 1 });
  const readable = fit(layout.bounds, isSingleLane(layout.bounds) ? READABLE_ZOOM : OVERVIEW_MIN_ZOOM);
  if (!isOverviewZoom(readable.zoom)) return readable;
  const bounds = overviewBounds(layout.bounds);
  const framed = fit(bounds, OVERVIEW_MIN_ZOOM);
  return acrossTheScreen(framed, bounds, layout.bounds, size, focus) ?? framed;
}

/** Screen px kept right of the last card when the cards fit across but their lane names do not all. */
const TIGHT_MARGIN = 8;

/**
 * At the overview's floor, a family (`bounds`, its lane names' room included) wider than the screen
 * with its padding, which the focus frame would cut at an edge (a phone): with less padding when that
 * is enough; else every card on screen, the lane names given the room left of them (a name with less
 * room ends in an ellipsis at the screen's edge); else, when even the cards are wider, from the
 * family's start (its first lanes' names whole) if `focus` is on screen there. Null: the frame as it is.
 */
function acrossTheScreen(framed: FlowViewport, bounds: Rect, cards: Rect, size: Size, focus: Rect | null): FlowViewport | null {
  const { zoom } = framed;
  const need = bounds.width * zoom;
  if (need + 2 * FIT_PADDING <= size.width) return null;
  if (need <= size.width) return { ...framed, x: (size.width - need) / 2 - bounds.x * zoom };
  if (cards.width * zoom + TIGHT_MARGIN <= size.width) return { ...framed, x: size.width - TIGHT_MARGIN - (cards.x + cards.width) * zoom };
  const x = FIT_PADDING - bounds.x * zoom;
  if (focus !== null && (focus.x + focus.width) * zoom + x > size.width - FIT_PADDING) return null;
  return { ...framed, x };
}

/** Every card on one lane: the family is one linear path. */
export function isSingleLane(bounds: Rect): boolean {
  return bounds.height < LANE_GAP;
}

/** True when every card of `layout` lies inside the screen under `viewport`. */
export function framesEveryStep(layout: Pick<TrajectoryLayout, 'bounds'>, viewport: FlowViewport, size: Size): boolean {
  const b = layout.bounds;
  const left = b.x * viewport.zoom + viewport.x;
  const top = b.y * viewport.zoom + viewport.y;
  return left >= -0.5 && top >= -0.5 && left + b.width * viewport.zoom <= size.width + 0.5 && top + b.height * viewport.zoom <= size.height + 0.5;
}

/** The step the chat shows: the earliest of the user messages in view; null when none is. */
export function stepInView(visibleTurns: Iterable<number>): number | null {
  let first: number | null = null;
  for (const turn of visibleTurns) if (first === null || turn < first) first = turn;
  return first;
}

/** The map follows the chat unless the person moved it within the last `FOLLOW_HOLD_MS`. */
export function shouldFollowChat(now: number, lastMovedByPerson: number | null, holdMs = FOLLOW_HOLD_MS): boolean {
  return lastMovedByPerson === null || now - lastMovedByPerson >= holdMs;
}

/** The node of the displayed path at `turn` (what following the chat frames). */
export function displayedNodeAt(layout: Pick<TrajectoryLayout, 'nodes'>, turn: number): string | null {
  for (const node of layout.nodes) if (node.data.isDisplayed && node.data.turn_index === turn) return node.id;
  return null;
}

/** localStorage key of a family's folded forks. */
export function collapsedForksKey(rootThreadId: string): string {
  return `trellis.trajectory.folded.${rootThreadId}`;
}

/** Reads a stored list of folded forks; anything unreadable is no fold at all. */
export function parseCollapsedForks(stored: string | null): ReadonlySet<string> {
  if (stored === null) return new Set();
  try {
    const value: unknown = JSON.parse(stored);
    return new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string').slice(0, 1000) : []);
  } catch {
    return new Set();
  }
}

export function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** Below this width (the studio's `md` breakpoint) the map starts as a compact strip above the chat. */
export const PHONE_MAX_WIDTH = 767;
/** The strip's canvas height on a phone, CSS px. */
export const PHONE_STRIP_HEIGHT = 96;

/** A phone starts with the strip; expanding it (or any other size) is the person's choice. */
export function startsAsStrip(viewportWidth: number): boolean {
  return viewportWidth <= PHONE_MAX_WIDTH;
}
