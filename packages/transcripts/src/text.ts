// Summary texts (docs/branching.md, "The transcript inspector's rules"). Only text parts are read: tool arguments, tool results
// and other non-text parts never reach a summary.
import type { ChatRecord } from './types';

export const SUMMARY_TEXT_LIMIT = 200;
const ELLIPSIS = '...';

/** Subtypes of user records that the system injected; they are not the user's prompts. */
const NON_PROMPT_SUBTYPES: ReadonlySet<string> = new Set(['notification', 'cron', 'mid_turn_user_message']);

export function isUserPrompt(record: ChatRecord): boolean {
  return (
    record.type === 'user' &&
    !(record.subtype !== undefined && NON_PROMPT_SUBTYPES.has(record.subtype)) &&
    record.externalInputKind !== 'notification'
  );
}

/** A user record's text: `systemPayload.displayText` when present, else its text parts. */
export function userTextFragments(record: ChatRecord): string[] {
  const displayText = record.systemPayload?.displayText;
  if (typeof displayText === 'string') return [displayText];
  return textParts(record, true);
}

/** An assistant record's text, without reasoning (`thought`) parts. */
export function assistantTextFragments(record: ChatRecord): string[] {
  return textParts(record, false);
}

function textParts(record: ChatRecord, includeThoughts: boolean): string[] {
  const parts = record.message?.parts;
  if (!Array.isArray(parts)) return [];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part?.text !== 'string') continue;
    if (!includeThoughts && part.thought === true) continue;
    texts.push(part.text);
  }
  return texts;
}

/**
 * Joins fragments with a space, collapses whitespace, trims, and keeps the first
 * SUMMARY_TEXT_LIMIT characters (code points, so no surrogate pair is split) plus '...'.
 * Stops reading as soon as the limit is exceeded. Undefined when no text remains.
 */
export function summarizeText(fragments: Iterable<string>): string | undefined {
  let out = '';
  let length = 0;
  for (const fragment of fragments) {
    let end = 0;
    while (end < fragment.length) {
      let start = end;
      while (start < fragment.length && isWhitespace(fragment.charCodeAt(start))) start++;
      if (start === fragment.length) break;
      end = start;
      while (end < fragment.length && !isWhitespace(fragment.charCodeAt(end))) end++;
      const word = fragment.slice(start, end);

      const room = SUMMARY_TEXT_LIMIT - length - (length > 0 ? 1 : 0);
      const wordLength = codePointLength(word);
      if (wordLength <= room) {
        out += length > 0 ? ` ${word}` : word;
        length += wordLength + (length > 0 ? 1 : 0);
        continue;
      }
      // The normalised text goes on past the limit: keep exactly its first SUMMARY_TEXT_LIMIT characters.
      if (room >= 0 && length > 0) out += ' ';
      if (room > 0)
        out += Array.from(word.slice(0, room * 2))
          .slice(0, room)
          .join('');
      return out + ELLIPSIS;
    }
  }
  return length === 0 ? undefined : out;
}

/** Exactly the characters `\s` matches: ECMAScript WhiteSpace and LineTerminator. */
function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
