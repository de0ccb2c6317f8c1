import { describe, expect, it } from 'vitest';
import { overlayKind, splitBySpans } from './render';
import { authorshipReport, documentSections } from './report';
import { summarizeStep, wordStarts } from './summary';
import type { AuthorshipSpan } from './types';

const span = (
  start: number,
  end: number,
  author: AuthorshipSpan['author'],
  turn: number,
  extra: Partial<AuthorshipSpan> = {},
): AuthorshipSpan => ({
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
    expect(splitBySpans(spans, 7, 'xyz').map((p) => [p.start, p.end, p.span.author])).toEqual([
      [0, 3, 'agent'],
    ]);
    expect(splitBySpans(spans, 6, 'xy').map((p) => [p.start, p.end, p.span.author])).toEqual([
      [0, 2, 'agent'],
    ]);
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

  it('overlapping spans (a stale list) give pieces that never overlap: the later span starts where the earlier ends', () => {
    // person [0,5) and agent [3,8) overlap on [3,5); the run is the document [0,8).
    const overlapping = [span(0, 5, 'person', 0), span(3, 8, 'agent', 1)];
    expect(splitBySpans(overlapping, 0, 'abcdefgh').map((p) => [p.start, p.end, p.span.author])).toEqual([
      [0, 5, 'person'],
      [5, 8, 'agent'],
    ]);
    // A span nested in another: the inner one gets nothing the outer already took.
    const nested = [span(0, 8, 'person', 0), span(2, 4, 'agent', 1)];
    expect(splitBySpans(nested, 0, 'abcdefgh').map((p) => [p.start, p.end, p.span.author])).toEqual([
      [0, 8, 'person'],
    ]);
  });

  it('counts UTF-16 units: an astral character before a boundary moves the boundary by two', () => {
    // "𝒜b|cd": "𝒜" is two units, so the person span [0,3) holds "𝒜b" and the agent's starts at "c".
    const pieces = splitBySpans([span(0, 3, 'person', 0), span(3, 5, 'agent', 1)], 0, '𝒜bcd');
    expect(pieces.map((p) => '𝒜bcd'.slice(p.start, p.end))).toEqual(['𝒜b', 'cd']);
  });

  it('leaves out what no span covers, and colours applied text as applied', () => {
    expect(splitBySpans([span(0, 3, 'person', 0)], 1, 'bcdef').map((p) => [p.start, p.end])).toEqual([
      [0, 2],
    ]);
    expect(overlayKind(span(0, 1, 'agent', 0, { via: 'apply', source: 't:1' }))).toBe('applied');
    expect(overlayKind(span(0, 1, 'agent_edited', 0))).toBe('agent_edited');
  });
});

describe('word counts', () => {
  it('counts runs of letters and digits, joined across an apostrophe, hyphen or dot; each CJK character; no symbols', () => {
    const text = "Don't co-author e.g. 3.14 # - | 😀 你好。 café";
    expect(
      wordStarts(text).map((i) =>
        text
          .slice(i)
          .split(/[\s。]/)[0]
          ?.slice(0, 9),
      ),
    ).toEqual(["Don't", 'co-author', 'e.g.', '3.14', '你好', '好', 'café']);
  });
});

describe('summarizeStep', () => {
  it('counts the words a step left, by author, applied text aside (hand-computed)', () => {
    // "Mine here. Agent text now. Edited one. Old. Brought in."
    const text = 'Mine here. Agent text now. Edited one. Old. Brought in.';
    const spans = [
      span(0, 11, 'person', 2), // "Mine here. " → 2
      span(11, 27, 'agent', 2), // "Agent text now. " → 3
      span(27, 39, 'agent_edited', 2), // "Edited one. " → 2
      span(39, 44, 'agent', 1), // "Old. " → 1, step 1
      span(44, 55, 'agent', 2, { via: 'apply', source: 'other:2' }), // "Brought in." → 2, applied
    ];
    expect(summarizeStep(text, spans, 2)).toEqual({
      person_words: 2,
      agent_words: 3,
      agent_edited_words: 2,
      unknown_words: 0,
    });
    expect(summarizeStep(text, spans, 1)).toEqual({
      person_words: 0,
      agent_words: 1,
      agent_edited_words: 0,
      unknown_words: 0,
    });
    expect(summarizeStep(text, spans, 3)).toEqual({
      person_words: 0,
      agent_words: 0,
      agent_edited_words: 0,
      unknown_words: 0,
    });
  });

  it('a CJK step counts each character', () => {
    // "你好。" by the agent at step 1: two words.
    expect(summarizeStep('你好。', [span(0, 3, 'agent', 1)], 1).agent_words).toBe(2);
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
    expect(documentSections('Lead.\n# H\nx').map((s) => s.title)).toEqual([
      '(before the first heading)',
      'H',
    ]);
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
