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
 * itself); tries again for about half a second while the transcript is still rendering, then gives
 * up (an earlier page of the transcript that is not loaded).
 */
export function scrollToTurnMessage(turn: number, framesLeft = 30): void {
  const row = turnMessage(turn);
  if (row) {
    row.scrollIntoView({ block: 'center', behavior: 'smooth' });
    return;
  }
  if (framesLeft > 0) requestAnimationFrame(() => scrollToTurnMessage(turn, framesLeft - 1));
}
