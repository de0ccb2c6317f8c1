// Word counts by author (issue 23's `summary`). A word is a word-like segment of Unicode word
// segmentation (Intl.Segmenter: "don't" is one word, each CJK word is one, "#", "-" and "|" are none);
// it counts for the author of the span holding its first character.
import type { Author, AuthorshipSpan, AuthorshipSummary } from './types';

const SUMMARY_KEY: Record<Author, keyof AuthorshipSummary> = {
  person: 'person_words',
  agent: 'agent_words',
  agent_edited: 'agent_edited_words',
  unknown: 'unknown_words',
};

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

export function emptySummary(): AuthorshipSummary {
  return { person_words: 0, agent_words: 0, agent_edited_words: 0, unknown_words: 0 };
}

/** Word offsets of `text` (UTF-16), in order. */
export function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) starts.push(segment.index);
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
