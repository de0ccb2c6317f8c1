// A message with more directives than the agent's context budget has messages (40 by default)
// is carried out in full and answered with a count of what changed, never with the help text.
import { MAX_MESSAGE_CHARS, type TurnEvent } from '@trellis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { getWorkspace } from '../workspace/get-workspace';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

const replyOf = (events: TurnEvent[]) => events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('');

function message(todos: number): string {
  const lines = ['objective: Count the birds', 'prefer: Short items'];
  for (let i = 1; i <= todos; i += 1) lines.push(`todo: Bird ${i}`);
  lines.push('append: First paragraph.', '', 'Second paragraph.');
  return lines.join('\n');
}

describe('the offline model at any size', () => {
  it.each([40, 200, 1_000])('carries out %i todo directives and a few others, and counts them in one reply', async (count) => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor, `Birds ${count}`);
    const content = message(count);
    expect(content.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);

    const events = await h.turn(actor, thread, content);

    expect(events.filter((e) => e.event === 'error')).toEqual([]);
    const tools = events.flatMap((e) => (e.event === 'tool' ? [e.data] : []));
    expect(tools).toHaveLength(count + 3);
    expect(tools.filter((t) => t.is_error)).toEqual([]);
    expect(replyOf(events)).toBe(`Set the objective, added 1 preference, added ${count} todos and appended 2 paragraphs.`);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete' } });

    const workspace = await getWorkspace(h.deps, actor, { threadId: thread });
    expect(workspace.objective).toBe('Count the birds');
    expect(workspace.preferences.map((p) => p.text)).toEqual(['Short items']);
    expect(workspace.todos.map((t) => t.text)).toEqual(Array.from({ length: count }, (_, i) => `Bird ${i + 1}`));
    expect(workspace.document.content).toBe('First paragraph.\n\nSecond paragraph.');

    // The next message is back within the budget, and still understood.
    const next = await h.turn(actor, thread, 'done: Bird 1');
    expect(replyOf(next)).toBe('Completed 1 todo.');
  }, 180_000);
});
