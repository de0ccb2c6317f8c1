import { describe, expect, it } from 'vitest';
import { MATCH_END as E, MATCH_START as S, readMarkedSnippet, snippetParts } from './marked-snippet';

describe('a marked search snippet', () => {
  it('is plain text with the ranges of the matched words', () => {
    const read = readMarkedSnippet(`The ${S}swarming${E} bees\n\nleave ${S}swarms${E}.`, 200);
    expect(read.text).toBe('The swarming bees leave swarms.');
    expect(read.highlights.map(([a, b]) => read.text.slice(a, b))).toEqual(['swarming', 'swarms']);
  });

  it('cuts long text with an ellipsis and drops or clips ranges past the cut', () => {
    const read = readMarkedSnippet(`${S}alpha${E} ${'x'.repeat(20)} ${S}omega${E}`, 10);
    expect(read.text).toBe('alpha xxx…');
    expect(read.highlights).toEqual([[0, 5]]);
    expect(readMarkedSnippet(`ab ${S}cdefgh${E}`, 6).highlights).toEqual([[3, 5]]);
  });

  it('splits into parts for rendering, ignoring ranges that do not fit', () => {
    expect(snippetParts('one two three', [[4, 7], [2, 5], [12, 20]])).toEqual([
      { text: 'one ', isMatch: false },
      { text: 'two', isMatch: true },
      { text: ' three', isMatch: false },
    ]);
  });
});
