import { describe, expect, it } from 'vitest';
import { readPathAnswer, READ_PATH_MAX_BYTES, utf8Length, type ReadPathAnswer, type ReadPathSource } from './read-path';
import { refsOfNote, withoutRefsNote, withRefsNote } from './refs-note';

const ref = { thread_id: 'th_a', turn: 4, label: '4.1' };

function source(document: string, messages = 3): ReadPathSource {
  return {
    ref,
    title: 'Drones',
    workspace: {
      objective: 'Survey',
      document: { title: 'Review', content: document },
      preferences: [{ text: 'Plain words', locked: true }],
      todos: [{ text: 'Check', done: false, depth: 0 }],
      artifacts: [{ number: 1, kind: 'note', title: 'Sites', content: 'a, b' }],
    },
    messages: Array.from({ length: messages }, (_, i) => ({ turn_index: i + 1, role: i % 2 ? 'assistant' : 'user', content: `message ${i}` })),
  };
}

describe('read_path’s answer', () => {
  it('is the step whole when it fits: document, items and messages, nothing said cut', () => {
    const answer = JSON.parse(readPathAnswer(source('# Review\n\nShort.'), undefined)) as ReadPathAnswer;
    expect(answer).toMatchObject({ path: '4.1', thread_id: 'th_a', turn: 4, title: 'Drones', document: { title: 'Review', content: '# Review\n\nShort.' } });
    expect(answer.preferences).toEqual([{ text: 'Plain words', locked: true }]);
    expect(answer.messages).toHaveLength(3);
    expect(answer.truncated).toBeUndefined();
  });

  it('answers one part when asked', () => {
    const answer = JSON.parse(readPathAnswer(source('Body.'), 'messages')) as ReadPathAnswer;
    expect(answer.document).toBeUndefined();
    expect(answer.todos).toBeUndefined();
    expect(answer.messages).toHaveLength(3);
  });

  it('cuts the oldest messages first, then the document, within the byte budget, and says so', () => {
    const long = 'é'.repeat(20_000); // two bytes each: the budget is bytes, not characters
    const text = readPathAnswer(source(long, 400), undefined);
    expect(utf8Length(text)).toBeLessThanOrEqual(READ_PATH_MAX_BYTES);
    const answer = JSON.parse(text) as ReadPathAnswer;
    expect(answer.messages).toEqual([]);
    expect(answer.document!.content.length).toBeGreaterThan(9_000);
    expect(long.startsWith(answer.document!.content)).toBe(true);
    expect(answer.truncated).toMatch(/400 of 400 messages left out.*the document is cut after \d+ of 20000 characters/);
  });

  it('keeps the newest messages that fit when the document is short', () => {
    const text = readPathAnswer({ ...source('Short.', 0), messages: Array.from({ length: 300 }, (_, i) => ({ turn_index: i, role: 'user', content: 'x'.repeat(200) })) }, undefined);
    const answer = JSON.parse(text) as ReadPathAnswer;
    expect(answer.document!.content).toBe('Short.');
    expect(answer.messages!.length).toBeGreaterThan(50);
    expect(answer.messages!.at(-1)!.turn).toBe(299);
    expect(answer.truncated).toMatch(/of 300 messages left out \(the oldest\)/);
  });
});

describe('the refs note', () => {
  it('names each ref after the text and reads back the same refs and text', () => {
    const refs = [ref, { thread_id: 'th_b', turn: 2, label: '2.3' }];
    const message = withRefsNote('Compare them.', refs);
    expect(refsOfNote(message)).toEqual(refs);
    expect(withoutRefsNote(message)).toBe('Compare them.');
    expect(withRefsNote('Alone.', [])).toBe('Alone.');
    expect(refsOfNote('Alone.')).toEqual([]);
  });
});
