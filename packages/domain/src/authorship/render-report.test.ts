import { describe, expect, it } from 'vitest';
import { overlayKind, splitBySpans } from './render';
import { authorshipReport, documentSections } from './report';
import { wordStarts } from './summary';
import type { AuthorshipSpan } from './types';

const span = (start: number, end: number, author: AuthorshipSpan['author'], turn: number, extra: Partial<AuthorshipSpan> = {}): AuthorshipSpan => ({
  start,
  end,
  author,
  turn,
  seq: turn + 1,
  ...extra,
});

describe('splitBySpans', () => {
  const spans = [span(0, 6, 'person', 0), span(6, 12, 'agent', 1), span(12, 20, 'agent_edited', 2)];

  it('splits a run at span boundaries, offsets relative to the run', () => {
    // A rendered text node for document[4, 14).
    const pieces = splitBySpans(spans, 4, 'abcdefghij');
    expect(pieces.map((p) => [p.start, p.end, p.span.author])).toEqual([
      [0, 2, 'person'],
      [2, 8, 'agent'],
      [8, 10, 'agent_edited'],
    ]);
  });

  it('a run inside one span is one piece; a run at a boundary starts in the next span', () => {
    expect(splitBySpans(spans, 7, 'xyz').map((p) => [p.start, p.end, p.span.author])).toEqual([[0, 3, 'agent']]);
    expect(splitBySpans(spans, 6, 'xy').map((p) => [p.start, p.end, p.span.author])).toEqual([[0, 2, 'agent']]);
  });

  it('never cuts a surrogate pair: the boundary moves past it', () => {
    // A stale overlay whose boundary falls inside "😀" (units 1–2 of the run).
    const stale = [span(0, 2, 'person', 0), span(2, 5, 'agent', 1)];
    const pieces = splitBySpans(stale, 0, 'a😀bc');
    expect(pieces.map((p) => [p.start, p.end, p.span.author])).toEqual([
      [0, 3, 'person'],
      [3, 5, 'agent'],
    ]);
  });

  it('leaves out what no span covers, and colours applied text as applied', () => {
    expect(splitBySpans([span(0, 3, 'person', 0)], 1, 'bcdef').map((p) => [p.start, p.end])).toEqual([[0, 2]]);
    expect(overlayKind(span(0, 1, 'agent', 0, { via: 'apply', source: 't:1' }))).toBe('applied');
    expect(overlayKind(span(0, 1, 'agent_edited', 0))).toBe('agent_edited');
  });
});

describe('word counts', () => {
  it('counts runs of letters and digits, joined across an apostrophe, hyphen or dot; each CJK character; no symbols', () => {
    const text = "Don't co-author e.g. 3.14 # - | 😀 你好。 café";
    expect(wordStarts(text).map((i) => text.slice(i).split(/[\s。]/)[0]?.slice(0, 9))).toEqual([
      "Don't",
      'co-author',
      'e.g.',
      '3.14',
      '你好',
      '好',
      'café',
    ]);
  });
});

describe('authorshipReport', () => {
  // "# Intro\nI wrote this. The agent wrote these four.\n## Method\nApplied words here.\n"
  const text = '# Intro\nI wrote this. The agent wrote these four.\n## Method\nApplied words here.\n';
  const spans = [
    span(0, 22, 'person', 0), // "# Intro\nI wrote this. " → Intro, I, wrote, this
    span(22, 49, 'agent', 2), // "The agent wrote these four." → 5 words
    span(49, 60, 'agent_edited', 3), // "\n## Method\n" → Method
    span(60, 80, 'agent', 1, { via: 'apply', source: 'other:1', thread_id: 'other' }), // "Applied words here.\n" → 3
  ];

  it('splits sections at headings', () => {
    expect(documentSections(text).map((s) => [s.title, text.slice(s.start, s.end)])).toEqual([
      ['Intro', '# Intro\nI wrote this. The agent wrote these four.\n'],
      ['Method', '## Method\nApplied words here.\n'],
    ]);
    expect(documentSections('Lead.\n# H\nx').map((s) => s.title)).toEqual(['(before the first heading)', 'H']);
  });

  it('counts words by author, per section, per agent step and per applied source (hand-computed)', () => {
    const report = authorshipReport({
      title: 'Review',
      pathLabel: 'main',
      generatedAt: '2026-12-02',
      text,
      spans,
      steps: [
        { turn: 1, label: 'Step 1', prompt: 'first' },
        { turn: 2, label: 'Step 2', prompt: 'Write four words\nabout the agent' },
      ],
      sourceLabels: { 'other:1': 'Step 1b' },
    });
    // 13 words: person 4, agent 5 + 3 applied = 8, agent_edited 1.
    expect(report).toContain('| Person | 4 (30.8%) |');
    expect(report).toContain('| Agent | 8 (61.5%) |');
    expect(report).toContain('| Agent, edited by the person | 1 (7.7%) |');
    expect(report).toContain('| Unknown (written before the change log) | 0 |');
    expect(report).toContain('| Total | 13 |');
    expect(report).toContain('| Intro | 4 (44.4%) | 5 (55.6%) | 0 | 0 | 9 |');
    expect(report).toContain('| Method | 0 | 3 (75.0%) | 1 (25.0%) | 0 | 4 |');
    expect(report).toContain('- Step 2: 5 words — asked: “Write four words about the agent”');
    expect(report).not.toContain('- Step 1:');
    expect(report).toContain('- From Step 1b: 3 words (agent 3)');
  });
});
