'use client';
import { useEffect, useRef } from 'react';
import { unsentText } from '@/lib/unsent-text';

export interface UnsentTextInput {
  /** What would be lost, as the question names it. */
  what: string;
  /** Read when a way out is taken, from the latest render: whether the text exists nowhere else. */
  hasUnsent: () => boolean;
  /** Throws the text away after "Discard" (the navigation alone may keep the editor mounted). */
  discard?: () => void;
  /** Puts the cursor back after "Keep editing". */
  focus?: () => void;
}

/** Registers the calling editor's unsent text with the page's store while it is mounted (lib/unsent-text.ts). */
export function useUnsentText(input: UnsentTextInput): void {
  const latest = useRef(input);
  useEffect(() => {
    latest.current = input;
  });
  const canFocus = input.focus !== undefined;
  useEffect(
    () =>
      unsentText.register({
        what: () => latest.current.what,
        hasUnsent: () => latest.current.hasUnsent(),
        discard: () => latest.current.discard?.(),
        ...(canFocus ? { focus: () => latest.current.focus?.() } : {}),
      }),
    [canFocus],
  );
}
