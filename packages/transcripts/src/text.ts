// Summary texts (issue 7 §2 "Texts"). Only text parts are read: tool arguments, tool results
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
  let pendingSpace = false;
  for (const fragment of fragments) {
    if (length > 0) pendingSpace = true;
    for (const char of fragment) {
      if (isWhitespace(char)) {
        if (length > 0) pendingSpace = true;
        continue;
      }
      if (pendingSpace) {
        if (length === SUMMARY_TEXT_LIMIT) return out + ELLIPSIS;
        out += ' ';
        length++;
        pendingSpace = false;
      }
      if (length === SUMMARY_TEXT_LIMIT) return out + ELLIPSIS;
      out += char;
      length++;
    }
  }
  return length === 0 ? undefined : out;
}

const WHITESPACE = /\s/;
function isWhitespace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return code >= 127 && WHITESPACE.test(char);
}
