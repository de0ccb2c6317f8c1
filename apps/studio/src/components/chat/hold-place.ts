/**
 * A control that moved the chat's scroll on purpose (the sibling switcher keeping its arrows under the
 * pointer, a replay bringing its step into view) tells the message list to hold that place: the list
 * then stops following the latest message, even when the place is within its "near the bottom" band,
 * until the person scrolls to the very bottom, jumps to the latest, sends or opens another thread.
 */
export const HOLD_PLACE_EVENT = 'trellis:hold-place';

export function holdPlace(scroller: HTMLElement): void {
  scroller.dispatchEvent(new Event(HOLD_PLACE_EVENT));
}
