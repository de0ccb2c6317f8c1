import { COMPOSER_ID } from './composer';

/**
 * Puts the cursor in the composer once the view it belongs to has rendered: after "Continue from
 * here" the next thing to do is to write the message, and focus must not drop to the page body when
 * the button that had it goes away. Tries for a few frames (the restored view renders after the
 * navigation), and stops as soon as the field has focus or the person has put it elsewhere.
 */
export function focusComposerSoon(framesLeft = 20): void {
  const field = document.getElementById(COMPOSER_ID);
  if (field instanceof HTMLTextAreaElement && !field.disabled && field.offsetParent !== null) {
    field.focus();
    if (document.activeElement === field) return;
  }
  const active = document.activeElement;
  const isFocusElsewhere = active !== null && active !== document.body && !active.closest('[data-testid="trajectory-panel"], [data-testid="replay-bar"]');
  if (framesLeft > 0 && !isFocusElsewhere) requestAnimationFrame(() => focusComposerSoon(framesLeft - 1));
}
