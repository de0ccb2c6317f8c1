import type { KeyboardEvent } from 'react';

/**
 * The one send key of every message editor (the composer and the edit of a sent message): Enter
 * sends, Shift+Enter starts a new line. A key press that ends an IME composition is not a send.
 */
export function isSendKey(event: KeyboardEvent<HTMLElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}

/** The hint under an editor, the same words wherever a message is written. */
export const SEND_KEY_HINT = 'Enter to send · Shift+Enter for a new line';
