import type { Authorship } from '@trellis/domain';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { authorshipExtension, authorshipMarks, markAt } from './authorship-extension';
import { spanContext } from './span-title';

type Span = Authorship['spans'][number];
const span = (
  start: number,
  end: number,
  author: Span['author'],
  turn: number,
  seq: number,
  extra: Partial<Span> = {},
): Span => ({
  start,
  end,
  author,
  turn,
  seq,
  ...extra,
});

function authorshipOf(spans: Span[]): Authorship {
  return {
    version: 3,
    spans,
    steps: [
      { turn: 0, label: '0' },
      { turn: 1, label: '1a' },
    ],
    sources: [
      { node_id: 'th_x:1', label: '6.5', path_title: 'Evidence' },
      { node_id: 'th_x:4', label: '4', path_title: 'Evidence' },
    ],
    summary: { person_words: 0, agent_words: 0, agent_edited_words: 0, unknown_words: 0 },
    people: [],
    changes: [
      { seq: 1, turn: 0, actor: 'person', at: '2026-12-03T01:00:00.000Z', tool_call: null },
      {
        seq: 2,
        turn: 1,
        actor: 'agent',
        at: '2026-12-03T01:05:00.000Z',
        tool_call: { id: 'call_7', name: 'write_document' },
      },
    ],
  };
}

/** The marks as `[from, to, data-author, hover]`. */
function marksOf(state: EditorState): [number, number, string, string][] {
  const out: [number, number, string, string][] = [];
  const iter = authorshipMarks(state).iter();
  for (; iter.value; iter.next()) {
    const spec = iter.value.spec as { attributes: Record<string, string>; hover: string };
    out.push([iter.from, iter.to, spec.attributes['data-author']!, spec.hover]);
  }
  return out;
}

/** The marks' classes, in order. */
function classesOf(state: EditorState): string[] {
  const out: string[] = [];
  for (const iter = authorshipMarks(state).iter(); iter.value; iter.next()) out.push((iter.value.spec as { class: string }).class);
  return out;
}

function stateWith(doc: string, spans: Span[], people: Authorship['people'] = []): EditorState {
  const authorship = { ...authorshipOf(spans), people };
  const context = { ...spanContext(authorship), formatTime: (iso: string) => iso.slice(11, 16) };
  return EditorState.create({ doc, extensions: authorshipExtension(authorship, context) });
}

describe('the authorship overlay in the editor', () => {
  // "Mine. Agent." — person [0,6) at step 0 (change 1), agent [6,12) at step 1 (change 2).
  const spans = [span(0, 6, 'person', 0, 1), span(6, 12, 'agent', 1, 2)];

  it('marks each span at its boundaries; the hover names the step, the time and the agent’s tool call', () => {
    expect(marksOf(stateWith('Mine. Agent.', spans))).toEqual([
      [0, 6, 'person', 'You · step 0 · 01:00'],
      [6, 12, 'agent', 'Agent · step 1a · 01:05 · tool call write_document'],
    ]);
  });

  it('at a boundary the pointer’s side picks the mark; outside every mark there is none', () => {
    const marks = authorshipMarks(stateWith('Mine. Agent.', spans));
    expect(markAt(marks, 6, -1)?.text).toBe('You · step 0 · 01:00');
    expect(markAt(marks, 6, 1)?.text).toMatch(/^Agent · step 1a/);
    expect(markAt(marks, 12, 1)).toBeNull();
  });

  it('carries the marks through typing: text typed inside a span stays in it, the next span moves along', () => {
    const state = stateWith('Mine. Agent.', spans);
    const typed = state.update({ changes: { from: 4, insert: ' own' } }).state;
    expect(typed.doc.toString()).toBe('Mine own. Agent.');
    expect(marksOf(typed).map(([from, to, author]) => [from, to, author])).toEqual([
      [0, 10, 'person'],
      [10, 16, 'agent'],
    ]);
    // Deleting across the boundary shortens both marks, never overlaps them.
    // "n. A" spans the boundary at 10.
    const cut = typed.update({ changes: { from: 7, to: 11 } }).state;
    expect(cut.doc.toString()).toBe('Mine owgent.');
    expect(marksOf(cut).map(([from, to, author]) => [from, to, author])).toEqual([
      [0, 7, 'person'],
      [7, 12, 'agent'],
    ]);
  });

  it('two people: each has a colour of their own and is named in the hover; one person keeps the plain shade and "You"', () => {
    // "Ana. Ben. Agent." — Ana [0,5), Ben [5,10), the agent's sentence Ben edited [10,16).
    const three = [
      span(0, 5, 'person', 0, 1, { user_id: 'u_ana' }),
      span(5, 10, 'person', 0, 1, { user_id: 'u_ben' }),
      span(10, 16, 'agent_edited', 1, 2, { user_id: 'u_ben' }),
    ];
    const people = [
      { user_id: 'u_ana', name: 'Ana', words: 1 },
      { user_id: 'u_ben', name: 'Ben', words: 1 },
    ];
    const state = stateWith('Ana. Ben. Agent.', three, people);
    expect(classesOf(state)).toEqual([
      'authorship-mark authorship-person authorship-person-0',
      'authorship-mark authorship-person authorship-person-1',
      'authorship-mark authorship-agent_edited',
    ]);
    expect(marksOf(state).map(([, , , hover]) => hover.split(' · ')[0])).toEqual(['Ana', 'Ben', 'Agent, edited by Ben']);
    const alone = stateWith('Ana. Ben. Agent.', three.slice(0, 1), people.slice(0, 1));
    expect(classesOf(alone)).toEqual(['authorship-mark authorship-person']);
    expect(marksOf(alone)[0]![3]).toMatch(/^You · /);
  });

  it('counts UTF-16 units (an emoji is two) and clips spans that outrun a shorter document', () => {
    // "😀 ok" is 5 units: person [0,3) "😀 ", agent [3,5) "ok"; a stale third span past the end is dropped.
    const state = stateWith('😀 ok', [
      span(0, 3, 'person', 0, 1),
      span(3, 9, 'agent', 1, 2),
      span(9, 12, 'person', 0, 1),
    ]);
    const marks = marksOf(state);
    expect(marks.map(([from, to, author]) => [state.doc.sliceString(from, to), author])).toEqual([
      ['😀 ', 'person'],
      ['ok', 'agent'],
    ]);
  });

  it('applied text names its source and first step by label and path, never by id; a span whose change is unknown still names its step', () => {
    const state = stateWith('abcd', [
      span(0, 2, 'agent', 4, 9, { via: 'apply', source: 'th_x:1', thread_id: 'th_x' }),
      span(2, 4, 'person', 1, 5),
    ]);
    expect(marksOf(state).map(([, , author, hover]) => [author, hover])).toEqual([
      ['applied', 'Applied from step 6.5 (“Evidence”) · written by the agent at step 4 (“Evidence”)'],
      ['person', 'You · step 1a'],
    ]);
  });
});
