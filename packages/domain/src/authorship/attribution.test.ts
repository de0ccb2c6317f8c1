import { describe, expect, it } from 'vitest';
import { applyAttribution } from './attribution';
import type { AuthorshipSpan } from './types';

describe('applyAttribution', () => {
  // Source: "Mine. Agent section text here." — person [0,6), agent [6,30) at step 2, change 5.
  const source = 'Mine. Agent section text here.';
  const spans: AuthorshipSpan[] = [
    { start: 0, end: 6, author: 'person', turn: 1, seq: 3 },
    { start: 6, end: 30, author: 'agent', turn: 2, seq: 5 },
  ];

  it('an inserted run found in the source takes the source’s authors, offsets into the inserted text', () => {
    // Target "Old.\n" gets "Agent section text here." appended after a newline.
    const attribution = applyAttribution(source, spans, 'src', 'Old.', 'Old.\nAgent section text here.');
    // The patch inserts "\nAgent section text here." (25 units): the newline is the apply's own.
    expect(attribution).toEqual([{ start: 1, end: 25, author: 'agent', turn: 2, seq: 5, thread_id: 'src' }]);
  });

  it('a run crossing two source spans is split; text of neither side gets no entry', () => {
    const attribution = applyAttribution(source, spans, 'src', '', 'X Mine. Agent section text here.');
    expect(attribution).toEqual([
      { start: 2, end: 8, author: 'person', turn: 1, seq: 3, thread_id: 'src' },
      { start: 8, end: 32, author: 'agent', turn: 2, seq: 5, thread_id: 'src' },
    ]);
  });

  it('keeps the first author of text the source had itself applied', () => {
    const applied: AuthorshipSpan[] = [{ start: 0, end: 30, author: 'agent', turn: 4, seq: 9, via: 'apply', source: 'x:4', thread_id: 'x' }];
    expect(applyAttribution(source, applied, 'src', '', source)).toEqual([{ start: 0, end: 30, author: 'agent', turn: 4, seq: 9, thread_id: 'x' }]);
  });
});
