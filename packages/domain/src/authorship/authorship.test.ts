import { describe, expect, it } from 'vitest';
import { makeDocPatch, type DocPatch } from '../changes/doc-patch';
import { coarsenPatch } from './coarsen';
import type { ChangeActor, ChangeVia, DocumentBodyAfter } from '../changes/change';
import { advanceAuthorship, computeAuthorship } from './advance';
import { summarizeAuthorship, wordsByPerson } from './summary';
import type { AuthorshipSpan, DocumentBodyChange } from './types';
import { segmentUnits } from './units';

let version = 0;
function change(
  seq: number,
  actor: ChangeActor,
  patch: DocPatch,
  opts: { turn?: number; via?: ChangeVia; source?: string; attribution?: DocumentBodyAfter['attribution'] } = {},
): DocumentBodyChange {
  version++;
  return {
    seq,
    turn: opts.turn ?? 0,
    actor,
    via: opts.via ?? (actor === 'person' ? 'editor' : actor === 'agent' ? 'agent_tool' : 'migration'),
    via_source: opts.source ?? null,
    after: { version, patch, ...(opts.attribution ? { attribution: opts.attribution } : {}) },
  };
}

/** Spans as `author[start,end)@seq` strings: short enough to read against a hand computation. */
function brief(spans: readonly AuthorshipSpan[]): string[] {
  return spans.map((s) => `${s.author}[${s.start},${s.end})@${s.seq}`);
}

describe('authorship spans', () => {
  it('a person typing, the agent appending and the person editing the agent sentence give person, agent and agent_edited', () => {
    const typed = change(1, 'person', [{ i: 'Hello world.' }]);
    const appended = change(2, 'agent', [{ r: 12 }, { i: ' Agent says hi.' }], { turn: 1 });
    // "Hello world. Agent says hi." → "Hello world. Agent says hello."
    const edited = change(3, 'person', [{ r: 24 }, { d: 2 }, { i: 'hello' }], { turn: 1 });
    const state = computeAuthorship([typed, appended, edited]);
    expect(state.text).toBe('Hello world. Agent says hello.');
    // The space between the sentences is in no unit: it stays the agent's.
    expect(brief(state.spans)).toEqual(['person[0,12)@1', 'agent[12,13)@2', 'agent_edited[13,30)@3']);
    expect(state.spans[2]).toMatchObject({ turn: 1, seq: 3 });
    expect(summarizeAuthorship(state.text, state.spans)).toEqual({
      person_words: 2,
      agent_words: 0,
      agent_edited_words: 3,
      unknown_words: 0,
    });
  });

  it('two people are told apart by their user ids: their own text, and the agent text each edited', () => {
    const ana = { ...change(1, 'person', [{ i: 'Ana writes.' }]), actor_id: 'u_ana' };
    const agent = change(2, 'agent', [{ r: 11 }, { i: ' The agent adds.' }], { turn: 1 });
    const ben = { ...change(3, 'person', [{ r: 27 }, { i: ' Ben writes.' }]), actor_id: 'u_ben' };
    const benEdits = { ...change(4, 'person', [{ r: 22 }, { d: 4 }, { i: 'appends' }]), actor_id: 'u_ben' };
    const state = computeAuthorship([ana, agent, ben, benEdits]);
    expect(state.text).toBe('Ana writes. The agent appends. Ben writes.');
    expect(state.spans.map((s) => [s.author, s.user_id ?? null])).toEqual([
      ['person', 'u_ana'],
      ['agent', null],
      ['agent_edited', 'u_ben'],
      ['person', 'u_ben'],
    ]);
  });

  it('a sentence the person adds between two agent sentences stays theirs; the agent sentences stay the agent’s', () => {
    const agent = change(1, 'agent', [{ i: 'One is here. Two is there.' }]);
    const person = change(2, 'person', [{ r: 13 }, { i: 'Mine. ' }]);
    const state = computeAuthorship([agent, person]);
    expect(state.text).toBe('One is here. Mine. Two is there.');
    expect(brief(state.spans)).toEqual(['agent[0,13)@1', 'person[13,19)@2', 'agent[19,32)@1']);
  });

  it('removing a whole agent sentence edits neither neighbour; cutting its period edits it', () => {
    const agent = change(1, 'agent', [{ i: 'Keep this. Drop that. Keep too.' }]);
    const drop = change(2, 'person', [{ r: 11 }, { d: 11 }]);
    const afterDrop = computeAuthorship([agent, drop]);
    expect(afterDrop.text).toBe('Keep this. Keep too.');
    expect(brief(afterDrop.spans)).toEqual(['agent[0,20)@1']);
    const cut = change(3, 'person', [{ r: 19 }, { d: 1 }]);
    const afterCut = advanceAuthorship(afterDrop, [cut]);
    expect(afterCut.text).toBe('Keep this. Keep too');
    expect(brief(afterCut.spans)).toEqual(['agent[0,11)@1', 'agent_edited[11,19)@3']);
  });

  it('whitespace-only edits edit no unit', () => {
    const agent = change(1, 'agent', [{ i: 'One. Two.' }]);
    const spaced = change(2, 'person', [{ r: 4 }, { i: '  ' }]);
    const state = computeAuthorship([agent, spaced]);
    expect(brief(state.spans)).toEqual(['agent[0,4)@1', 'person[4,6)@2', 'agent[6,11)@1']);
  });

  it('typing at the boundary of an agent span: glued to its sentence edits it, on a new line does not', () => {
    const agent = change(1, 'agent', [{ i: 'Agent.' }]);
    const newLine = change(2, 'person', [{ r: 6 }, { i: '\nMine.' }]);
    const afterLine = computeAuthorship([agent, newLine]);
    expect(brief(afterLine.spans)).toEqual(['agent[0,6)@1', 'person[6,12)@2']);
    const glued = change(3, 'person', [{ i: 'X' }]);
    const afterGlue = advanceAuthorship(afterLine, [glued]);
    expect(afterGlue.text).toBe('XAgent.\nMine.');
    expect(brief(afterGlue.spans)).toEqual(['agent_edited[0,7)@3', 'person[7,13)@2']);
  });

  it('counts UTF-16 units: a surrogate pair is two, and spans never split it', () => {
    const person = change(1, 'person', [{ i: '😀 Hi there.' }]);
    const agent = change(2, 'agent', [{ r: 2 }, { i: ' 🎉' }]);
    const state = computeAuthorship([person, agent]);
    expect(state.text).toBe('😀 🎉 Hi there.');
    expect(brief(state.spans)).toEqual(['person[0,2)@1', 'agent[2,5)@2', 'person[5,15)@1']);
    expect(state.text.slice(2, 5)).toBe(' 🎉');
  });

  it('CRLF: the break belongs to no unit, an edit on the second line leaves the first the agent’s', () => {
    const agent = change(1, 'agent', [{ i: 'Line one.\r\nLine two.' }]);
    const person = change(2, 'person', [{ r: 16 }, { i: '2' }, { d: 3 }]);
    const state = computeAuthorship([agent, person]);
    expect(state.text).toBe('Line one.\r\nLine 2.');
    expect(brief(state.spans)).toEqual(['agent[0,11)@1', 'agent_edited[11,18)@2']);
  });

  it('headings, list items and table cells are whole units', () => {
    const text = '# A title. Still title\n- item one. still item\n| cell a. more | b |\nOne. Two!';
    expect(segmentUnits(text).map((u) => [u.kind, text.slice(u.start, u.end)])).toEqual([
      ['heading', '# A title. Still title'],
      ['list_item', '- item one. still item'],
      ['table_cell', 'cell a. more'],
      ['table_cell', 'b'],
      ['sentence', 'One.'],
      ['sentence', 'Two!'],
    ]);
    const agent = change(1, 'agent', [{ i: text }]);
    // The person changes the cell "b" to "bc": only that cell becomes agent_edited.
    const cell = change(2, 'person', [{ r: 64 }, { i: 'c' }]);
    const state = computeAuthorship([agent, cell]);
    expect(state.text.slice(63, 65)).toBe('bc');
    expect(brief(state.spans)).toEqual(['agent[0,63)@1', 'agent_edited[63,65)@2', 'agent[65,77)@1']);
    // Replacing a whole unit is writing a new one: "bc" → "X" is the person's.
    const replaced = advanceAuthorship(state, [change(3, 'person', [{ r: 63 }, { d: 2 }, { i: 'X' }])]);
    expect(brief(replaced.spans)).toEqual(['agent[0,63)@1', 'person[63,64)@3', 'agent[64,76)@1']);
  });

  it('text from the migration change is unknown, never guessed; the agent editing it stays agent', () => {
    const migration = change(1, 'system', [{ i: 'Old text. More.' }]);
    const agent = change(2, 'agent', [{ r: 10 }, { d: 4 }, { i: 'New' }]);
    const state = computeAuthorship([migration, agent]);
    expect(state.text).toBe('Old text. New.');
    expect(brief(state.spans)).toEqual(['unknown[0,10)@1', 'agent[10,13)@2', 'unknown[13,14)@1']);
    expect(summarizeAuthorship(state.text, state.spans)).toMatchObject({ unknown_words: 2, agent_words: 1 });
  });

  it('applied text keeps its original authors and says via apply from its source node', () => {
    const person = change(1, 'person', [{ i: 'Mine.' }]);
    const applied = change(2, 'person', [{ r: 5 }, { i: '\nTheirs. Agent part.' }], {
      turn: 3,
      via: 'apply',
      source: 'thread-b:2',
      attribution: [
        { start: 1, end: 8, author: 'person', turn: 1, seq: 4, thread_id: 'thread-b' },
        { start: 9, end: 20, author: 'agent', turn: 2, seq: 7, thread_id: 'thread-b' },
      ],
    });
    const state = computeAuthorship([person, applied]);
    expect(state.spans).toEqual([
      { start: 0, end: 5, author: 'person', turn: 0, seq: 1 },
      { start: 5, end: 6, author: 'person', turn: 3, seq: 2, via: 'apply', source: 'thread-b:2' },
      { start: 6, end: 13, author: 'person', turn: 1, seq: 4, via: 'apply', source: 'thread-b:2', thread_id: 'thread-b' },
      { start: 13, end: 14, author: 'person', turn: 3, seq: 2, via: 'apply', source: 'thread-b:2' },
      { start: 14, end: 25, author: 'agent', turn: 2, seq: 7, via: 'apply', source: 'thread-b:2', thread_id: 'thread-b' },
    ]);
  });

  it('advancing cached spans gives what computing from the first change gives', () => {
    const changes = [
      change(1, 'person', [{ i: 'A b c. D e f.' }]),
      change(2, 'agent', [{ r: 13 }, { i: ' G h i.' }]),
      change(3, 'person', [{ r: 15 }, { d: 1 }, { i: 'H' }]),
      change(4, 'agent', [{ i: 'Intro. ' }]),
    ];
    const full = computeAuthorship(changes);
    const cached = computeAuthorship(changes.slice(0, 2));
    expect(advanceAuthorship(cached, changes.slice(2))).toEqual(full);
    expect(full.version).toBe(changes[3]?.after.version);
  });

  it('a rewritten sentence is one span, not slivers of the old letters a character diff keeps', () => {
    const before = 'Sentence 7 is about vines that climb a trellis.';
    const after = 'Edit 3 rewrote sentence 7 about the garden.';
    const patch = makeDocPatch(before, after);
    expect(patch.filter((op) => 'r' in op).length).toBeGreaterThan(2);
    const state = computeAuthorship([change(1, 'agent', [{ i: before }]), change(2, 'person', patch)]);
    expect(state.text).toBe(after);
    // Rewriting the whole agent sentence leaves no agent letter standing: the unit is agent_edited whole.
    expect(brief(state.spans)).toEqual(['agent_edited[0,43)@2']);
    expect(coarsenPatch(before, patch).filter((op) => 'r' in op).length).toBeLessThan(patch.filter((op) => 'r' in op).length);
  });

  it('refuses a change that does not fit the text it follows', () => {
    expect(() => computeAuthorship([change(1, 'person', [{ r: 3 }, { i: 'x' }])])).toThrow(RangeError);
  });
});

describe('text the agent copied from a cited step', () => {
  it('is the agent’s with its source (overlay "cited") until a person edits it', async () => {
    const { overlayKind } = await import('./render');
    const typed = change(1, 'person', [{ i: 'Mine.' }]);
    const copied = change(2, 'agent', [{ r: 5 }, { i: ' Sites were sampled by drone.' }], { turn: 2, source: 'th_b:2' });
    const state = computeAuthorship([typed, copied]);
    const cited = state.spans.find((s) => s.via === 'cite')!;
    expect(cited).toMatchObject({ author: 'agent', source: 'th_b:2', turn: 2, seq: 2, start: 5, end: 34 });
    expect(overlayKind(cited)).toBe('cited');
    // A person's edit inside the sentence makes that unit agent_edited, without the source (the space before it keeps it).
    const edited = advanceAuthorship(state, [change(3, 'person', [{ r: 33 }, { i: ' twice' }], { turn: 2 })]);
    expect(brief(edited.spans)).toEqual(['person[0,5)@1', 'agent[5,6)@2', 'agent_edited[6,40)@3']);
    expect(edited.spans.map((s) => s.via ?? null)).toEqual([null, 'cite', null]);
  });
});

describe('words by person', () => {
  it('counts each named person’s own words, lists who edited agent text, and leaves unnamed text to the summary', () => {
    const text = 'Ana wrote this. Ben wrote these three. Agent line. Old words.';
    const spans: AuthorshipSpan[] = [
      { start: 0, end: 16, author: 'person', turn: 0, seq: 1, user_id: 'u_ana' },
      { start: 16, end: 39, author: 'person', turn: 0, seq: 2, user_id: 'u_ben' },
      { start: 39, end: 51, author: 'agent_edited', turn: 1, seq: 3, user_id: 'u_cy' },
      { start: 51, end: text.length, author: 'person', turn: 0, seq: 4 },
    ];
    expect(wordsByPerson(text, spans)).toEqual([
      { user_id: 'u_ana', words: 3 },
      { user_id: 'u_ben', words: 4 },
      { user_id: 'u_cy', words: 0 },
    ]);
    expect(summarizeAuthorship(text, spans).person_words).toBe(9);
  });
});
