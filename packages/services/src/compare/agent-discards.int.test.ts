// The decision map when the agent deletes: a scripted model calls remove_todo and remove_preference
// during a turn (the offline model's directives only add and complete), and "what changed" at that
// step lists both as discarded by the agent, beside a deletion made by hand after the turn.
import { ScriptedChatModel } from '@trellis/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createPreference } from '../workspace/create-preference';
import { createTodo } from '../workspace/create-todo';
import { deleteTodo } from '../workspace/delete-todo';
import { getWorkspace } from '../workspace/get-workspace';
import { getFamilyGraph } from '../graph/get-family-graph';
import { getStepChanges } from './step-changes';

let h: Harness;
let model: ScriptedChatModel;
const ids = { outline: '', cite: '' };

beforeAll(async () => {
  // The script reads the ids when the turn runs: they are filled in before the turn is sent.
  model = new ScriptedChatModel([
    {
      get toolCalls() {
        return [
          { name: 'remove_todo', args: { id: ids.outline } },
          { name: 'remove_preference', args: { id: ids.cite } },
        ];
      },
    },
    { text: 'Removed the outline todo and the citation preference.' },
  ]);
  h = await createHarness({ model: { instance: model } });
});
afterAll(() => h.deps.close());

describe('discarded by the agent', () => {
  it('a todo and a preference the agent deletes during turn k are discarded at step k, by the agent', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    const cite = await createPreference(h.deps, actor, {
      threadId: root,
      preference: { text: 'Cite sources' },
    });
    const outline = await createTodo(h.deps, actor, {
      threadId: root,
      todo: { text: 'Outline', done: true },
    });
    const intro = await createTodo(h.deps, actor, { threadId: root, todo: { text: 'Intro' } });
    ids.outline = outline.id;
    ids.cite = cite.id;

    const events = await h.turn(actor, root, 'Drop the outline and the citation rule.');
    const tools = events.flatMap((e) => (e.event === 'tool' ? [[e.data.name, e.data.is_error]] : []));
    expect(tools.sort()).toEqual([
      ['remove_preference', false],
      ['remove_todo', false],
    ]);
    const live = await getWorkspace(h.deps, actor, { threadId: root });
    expect([live.preferences, live.todos.map((t) => t.text)]).toEqual([[], ['Intro']]);
    // A person deletes the other todo after the turn: the same step, by hand.
    await deleteTodo(h.deps, actor, { threadId: root, todoId: intro.id });

    const step1 = await getStepChanges(h.deps, actor, { threadId: root, turn: 1 });
    // (The agent's two tool calls may run side by side: their order in the log is not the point.)
    expect([...step1.discarded].sort((x, y) => x.text.localeCompare(y.text))).toEqual([
      { kind: 'preference', key: cite.key, text: 'Cite sources', locked: false, by: 'agent' },
      { kind: 'todo', key: intro.key, text: 'Intro', done: false, depth: 0, by: 'person' },
      { kind: 'todo', key: outline.key, text: 'Outline', done: true, depth: 0, by: 'agent' },
    ]);
    const step = { node_id: `${root}:1`, label: '1' };
    // The compare's removed items name who removed them, as the decision log does.
    expect(step1.todos.map((t) => [t.a?.text, t.status, t.removed_at, t.removed_by])).toEqual([
      ['Outline', 'removed', step, 'agent'],
      ['Intro', 'removed', step, 'person'],
    ]);
    expect(step1.preferences.map((p) => [p.a?.text, p.status, p.removed_at, p.removed_by])).toEqual([
      ['Cite sources', 'removed', step, 'agent'],
    ]);
    // Who did what at the step: the agent removed two items, the person one.
    expect(step1.by_author.agent_items.map((i) => i.key).sort()).toEqual([cite.key, outline.key].sort());
    expect(step1.by_author.person_items).toEqual([{ kind: 'todo', key: intro.key }]);
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    expect(graph.nodes.find((n) => n.turn_index === 1)!.discarded_count).toBe(3);
  });
});
