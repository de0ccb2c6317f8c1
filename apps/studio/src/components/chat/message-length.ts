// The composer's view of the server's message limit (MAX_MESSAGE_CHARS, counted on the trimmed
// text as the messages contract does): a counter once the draft nears it, a refusal over it.
import { MAX_MESSAGE_CHARS } from '@trellis/domain';

/** From this share of the limit on, the composer shows how many characters are used. */
const COUNTER_FROM = 0.9;

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function isTooLong(draft: string): boolean {
  return draft.trim().length > MAX_MESSAGE_CHARS;
}

/** "Message too long by 68,000 characters (100,000 of 32,000)": shown while typing, before anything is sent. */
export function tooLongMessage(length: number): string {
  const over = length - MAX_MESSAGE_CHARS;
  return `Message too long by ${formatCount(over)} character${over === 1 ? '' : 's'} (${formatCount(length)} of ${formatCount(MAX_MESSAGE_CHARS)})`;
}

/** Null while the draft is well under the limit. */
export function lengthNotice(length: number): { isOver: boolean } | null {
  if (length < MAX_MESSAGE_CHARS * COUNTER_FROM) return null;
  return { isOver: length > MAX_MESSAGE_CHARS };
}
