import type { Authorship } from '@trellis/domain';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuthorshipMarkdown } from './authorship-markdown';
import { spanContext } from './span-title';

type Span = Authorship['spans'][number];
const span = (start: number, end: number, author: Span['author'], turn: number, extra: Partial<Span> = {}): Span => ({
  start,
  end,
  author,
  turn,
  seq: turn + 1,
  ...extra,
});

function render(source: string, spans: Span[]): string {
  const authorship: Authorship = {
    version: 1,
    spans,
    steps: [{ turn: 2, label: '2a' }],
    sources: [{ node_id: 'other:1', label: '6.5', path_title: 'Evidence' }],
    summary: { person_words: 0, agent_words: 0, agent_edited_words: 0, unknown_words: 0 },
    people: [],
    changes: [],
  };
  return renderToStaticMarkup(createElement(AuthorshipMarkdown, { source, authorship, context: spanContext(authorship) }));
}

describe('the authorship overlay in Preview', () => {
  it('splits text at span boundaries and names the step on hover', () => {
    // "Mine. Agent." — person [0,6), agent [6,12) from step 2 (labelled 2a).
    const html = render('Mine. Agent.', [span(0, 6, 'person', 0), span(6, 12, 'agent', 2)]);
    expect(html).toContain('<span class="authorship-mark authorship-person" title="You · step 0" data-author="person">Mine. </span>');
    expect(html).toContain('<span class="authorship-mark authorship-agent" title="Agent · step 2a" data-author="agent">Agent.</span>');
  });

  it('a span boundary inside bold text: marks nest inside the <strong>, split where the span ends', () => {
    // "**ab**cd": the text node "ab" sits at source offsets 2–4; person [0,3), agent [3,8).
    const html = render('**ab**cd', [span(0, 3, 'person', 0), span(3, 8, 'agent', 2)]);
    expect(html).toContain(
      '<strong><span class="authorship-mark authorship-person" title="You · step 0" data-author="person">a</span>' +
        '<span class="authorship-mark authorship-agent" title="Agent · step 2a" data-author="agent">b</span></strong>',
    );
    expect(html).toContain('<span class="authorship-mark authorship-agent" title="Agent · step 2a" data-author="agent">cd</span>');
  });

  it('keeps a surrogate pair whole and marks applied text as applied', () => {
    // "😀x": a stale boundary at 1 would cut the emoji; the piece runs to 2 instead.
    const html = render('😀x', [span(0, 1, 'person', 0), span(1, 3, 'agent', 1, { via: 'apply', source: 'other:1' })]);
    expect(html).toContain('data-author="person">😀</span>');
    expect(html).toContain('class="authorship-mark authorship-applied" title="Applied from step 6.5 (“Evidence”) · written by the agent" data-author="applied">x</span>');
  });

  it('marks text the agent copied from a cited step as "Agent, from" its label, named in the same sources as applied text', () => {
    const html = render('Mine. Copied.', [span(0, 6, 'person', 0), span(6, 13, 'agent', 2, { via: 'cite', source: 'other:1' })]);
    expect(html).toContain('class="authorship-mark authorship-cited" title="Agent, from 6.5 · step 2a" data-author="cited">Copied.</span>');
  });

  it('an escaped character (rendered text shorter than its source) takes the span at its start', () => {
    // "a\*b" renders "a*b" from 4 source units.
    const html = render('a\\*b', [span(0, 2, 'person', 0), span(2, 4, 'agent', 2)]);
    expect(html).toContain('data-author="person">a*b</span>');
  });
});
