// Word counts by author (the authorship `summary`). A word is a run of letters, marks and digits, joined
// across an inner apostrophe, hyphen or dot ("don't", "co-author", "e.g", "3.14" are one each); each
// Han, Hiragana or Katakana character is a word of its own; "#", "-", "|" and emoji are none. A word
// counts for the author of the span holding its first character. (Intl.Segmenter gives the same
// answer on Latin text and a better one on CJK, but costs ~5 ms per KB: too slow for every read.)
import type { Author, AuthorshipSpan, AuthorshipSummary } from './types';

const SUMMARY_KEY: Record<Author, keyof AuthorshipSummary> = {
  person: 'person_words',
  agent: 'agent_words',
  agent_edited: 'agent_edited_words',
  unknown: 'unknown_words',
};

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}`;
const LETTERS = String.raw`(?:(?![${CJK}])[\p{L}\p{M}\p{N}])+`;
const WORD = new RegExp(String.raw`[${CJK}]|${LETTERS}(?:['’\-.]${LETTERS})*`, 'gu');

/** A fresh word pattern (global: each caller keeps its own `lastIndex`). */
export function wordRegExp(): RegExp {
  return new RegExp(WORD.source, 'gu');
}

export function emptySummary(): AuthorshipSummary {
  return { person_words: 0, agent_words: 0, agent_edited_words: 0, unknown_words: 0 };
}

/** Word offsets of `text` (UTF-16), in order. */
export function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (const match of text.matchAll(WORD)) starts.push(match.index);
  return starts;
}

/** Words of `text` by author of `spans` (which cover it), optionally only within `[from, to)` (`words`: its `wordStarts`). */
export function summarizeAuthorship(
  text: string,
  spans: readonly AuthorshipSpan[],
  from = 0,
  to = text.length,
  words: readonly number[] = wordStarts(text),
): AuthorshipSummary {
  const summary = emptySummary();
  let index = 0;
  for (const start of words) {
    if (start < from || start >= to) continue;
    while (index < spans.length && (spans[index] as AuthorshipSpan).end <= start) index++;
    const span = spans[index];
    if (span) summary[SUMMARY_KEY[span.author]]++;
  }
  return summary;
}

/**
 * What step `turn` left in the document, by author: the words of `text` whose first character sits in
 * a span that came from that step, applied text aside (an apply brings words, nobody writes them
 * there). `agent_edited` words are the agent's units a person changed at that step.
 */
export function summarizeStep(
  text: string,
  spans: readonly AuthorshipSpan[],
  turn: number,
): AuthorshipSummary {
  const summary = emptySummary();
  let index = 0;
  for (const start of wordStarts(text)) {
    while (index < spans.length && (spans[index] as AuthorshipSpan).end <= start) index++;
    const span = spans[index];
    if (span && span.start <= start && span.turn === turn && span.via !== 'apply')
      summary[SUMMARY_KEY[span.author]]++;
  }
  return summary;
}

/**
 * Words by person: for each `user_id` the spans name on a person's text, the words whose first
 * character sits in that person's spans (in order of first appearance). Text of a person the log
 * does not name (older changes) is not counted here; the summary's `person_words` holds it.
 */
export function wordsByPerson(
  text: string,
  spans: readonly AuthorshipSpan[],
  words: readonly number[] = wordStarts(text),
): { user_id: string; words: number }[] {
  const counts = new Map<string, number>();
  for (const span of spans) if ((span.author === 'person' || span.author === 'agent_edited') && span.user_id && !counts.has(span.user_id)) counts.set(span.user_id, 0);
  let index = 0;
  for (const start of words) {
    while (index < spans.length && (spans[index] as AuthorshipSpan).end <= start) index++;
    const span = spans[index];
    if (span && span.author === 'person' && span.user_id) counts.set(span.user_id, (counts.get(span.user_id) ?? 0) + 1);
  }
  return [...counts].map(([user_id, count]) => ({ user_id, words: count }));
}
