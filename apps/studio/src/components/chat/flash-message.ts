import { holdPlace } from './hold-place';

const FLASH_CLASS = 'flash-message';

/**
 * Scrolls the chat to the user message of `turn` and flashes it (a card of the displayed path was
 * clicked). False when the message is not in the transcript shown (a preview stops at its step).
 */
export function flashTurnMessage(turn: number): boolean {
  const row = turnMessage(turn);
  if (!row) return false;
  row.scrollIntoView({ block: 'center', behavior: 'smooth' });
  row.classList.remove(FLASH_CLASS);
  // Restart the animation when the same message is flashed twice in a row.
  void row.offsetWidth;
  row.classList.add(FLASH_CLASS);
  row.dataset.flash = 'on';
  row.addEventListener(
    'animationend',
    () => {
      row.classList.remove(FLASH_CLASS);
      delete row.dataset.flash;
    },
    { once: true },
  );
  return true;
}

function turnMessage(turn: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    `[data-testid="message-list"] [data-testid="message-user"][data-turn="${turn}"]`,
  );
}

/**
 * Scrolls the chat to the user message of `turn` without flashing it (the replay marks its step
 * itself). The list may still be rendering (a replay link opened cold) or pull itself back to the
 * latest message while it thinks it follows the stream, so the message is brought back into view
 * until it has stayed there for a few frames; gives up after about a second (an earlier page of the
 * transcript that is not loaded).
 */
export function scrollToTurnMessage(turn: number, framesLeft = 60, settledFrames = 0): void {
  const row = turnMessage(turn);
  const list = row?.closest<HTMLElement>('[data-testid="message-list"]');
  let settled = settledFrames;
  if (row && list) {
    if (isInView(row, list)) settled += 1;
    else {
      settled = 0;
      row.scrollIntoView({ block: 'center' });
      // Placed on purpose: the list stops following the latest message (a reply's rows or a
      // re-read of the transcript landing later would pull it back down).
      holdPlace(list);
    }
  }
  if (settled < 5 && framesLeft > 0) requestAnimationFrame(() => scrollToTurnMessage(turn, framesLeft - 1, settled));
}

function isInView(row: HTMLElement, list: HTMLElement): boolean {
  const view = list.getBoundingClientRect();
  const box = row.getBoundingClientRect();
  return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
}
