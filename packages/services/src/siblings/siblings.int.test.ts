import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { listMessages } from '../lineage/list-messages';
import { editTurn } from './edit-turn';
import { regenerateTurn } from './regenerate-turn';
import { listSiblings } from './list-siblings';
import { getCursor, putCursor } from './cursor';
import { updateConversation } from '../conversations/update-conversation';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

async function drain(events: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** What the model saw in its last call, without the system prompt. */
function lastModelInput(): string[] {
  return h.model.received
    .at(-1)!
    .filter((m) => m.getType() !== 'system')
    .map((m) => m.text);
}

async function threeTurns(actor: { userId: string }) {
  const threadId = await h.newConversation(actor);
  await h.turn(actor, threadId, 'first question');
  await h.turn(actor, threadId, 'second question');
  await h.turn(actor, threadId, 'third question');
  return threadId;
}

describe('siblings at a step', () => {
  it('forks made by edit, regenerate and restore-and-send at the same step form one list in creation order', async () => {
    const actor = await h.newUser();
    const root = await threeTurns(actor);

    const edited = await editTurn(h.deps, actor, { threadId: root, turn: 2, content: 'second, reworded' });
    await h.turn(actor, edited.thread_id, 'second, reworded');
    const regenerated = await regenerateTurn(h.deps, actor, { threadId: root, turn: 2 });
    const events = await drain(regenerated);
    expect(events[0]).toEqual({ event: 'branch', data: { thread_id: regenerated.threadId } });
    expect(events.map((e) => e.event)).toContain('done');
    const restored = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    await h.turn(actor, restored.thread_id, 'from the restored step');

    const expected = [root, edited.thread_id, regenerated.threadId, restored.thread_id];
    for (const [i, threadId] of expected.entries()) {
      const list = await listSiblings(h.deps, actor, { threadId, turn: 2 });
      expect(list.siblings.map((s) => s.thread_id)).toEqual(expected);
      expect(list.index).toBe(i);
    }
    const list = await listSiblings(h.deps, actor, { threadId: root, turn: 2 });
    expect(list.siblings.map((s) => s.preview)).toEqual([
      'second question',
      'second, reworded',
      'second question',
      'from the restored step',
    ]);
    expect(new Set(list.siblings.map((s) => s.label)).size).toBe(4);
    // a step with no fork has a single sibling
    expect((await listSiblings(h.deps, actor, { threadId: root, turn: 1 })).siblings).toHaveLength(1);
  });

  it('switching to a sibling lands on the step last viewed in its subtree, else on its most recently updated leaf', async () => {
    const actor = await h.newUser();
    const root = await threeTurns(actor);
    const edited = await editTurn(h.deps, actor, { threadId: root, turn: 2, content: 'edit' });
    await h.turn(actor, edited.thread_id, 'edit');
    await h.turn(actor, edited.thread_id, 'edit goes on');
    const deeper = await createBranch(h.deps, actor, { threadId: edited.thread_id, from_turn: 3 });
    await h.turn(actor, deeper.thread_id, 'deeper');

    let list = await listSiblings(h.deps, actor, { threadId: root, turn: 2 });
    expect(list.siblings.find((s) => s.thread_id === edited.thread_id)?.leaf_thread_id).toBe(deeper.thread_id);
    await putCursor(h.deps, actor, { threadId: root, cursorThreadId: edited.thread_id });
    await putCursor(h.deps, actor, { threadId: root, cursorThreadId: root });
    list = await listSiblings(h.deps, actor, { threadId: root, turn: 2 });
    expect(list.siblings.find((s) => s.thread_id === edited.thread_id)?.leaf_thread_id).toBe(edited.thread_id);
    expect(list.siblings.find((s) => s.thread_id === root)?.leaf_thread_id).toBe(root);
  });
});

describe('the two pagers of a step', () => {
  it("regenerations page on the reply, edits and continues on the message; a renamed or continued regeneration becomes a path", async () => {
    const actor = await h.newUser();
    const root = await threeTurns(actor);
    const edited = await editTurn(h.deps, actor, { threadId: root, turn: 2, content: 'second, reworded' });
    await h.turn(actor, edited.thread_id, 'second, reworded');
    const regenerations: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await regenerateTurn(h.deps, actor, { threadId: root, turn: 2 });
      await drain(r);
      regenerations.push(r.threadId);
    }
    const restored = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    await h.turn(actor, restored.thread_id, 'from the restored step');

    const fromRoot = await listSiblings(h.deps, actor, { threadId: root, turn: 2 });
    // the old fields still list every path that diverges here
    expect(fromRoot.siblings.map((s) => s.thread_id)).toEqual([root, edited.thread_id, ...regenerations, restored.thread_id]);
    expect(fromRoot.message.siblings.map((s) => s.thread_id)).toEqual([root, edited.thread_id, restored.thread_id]);
    expect(fromRoot.message.index).toBe(0);
    expect(fromRoot.reply.siblings.map((s) => s.thread_id)).toEqual([root, ...regenerations]);
    expect(fromRoot.reply.index).toBe(0);
    // paging the reply lands on the alternative itself: the same step, answered again
    expect(fromRoot.reply.siblings.slice(1).map((s) => s.leaf_thread_id)).toEqual(regenerations);

    const fromSecond = await listSiblings(h.deps, actor, { threadId: regenerations[1]!, turn: 2 });
    expect(fromSecond.reply.index).toBe(2);
    expect(fromSecond.message.index).toBe(0);
    expect(fromSecond.reply.siblings[0]!.leaf_thread_id).toBe(root);

    await updateConversation(h.deps, actor, { threadId: regenerations[0]!, title: 'The shorter answer' });
    await h.turn(actor, regenerations[2]!, 'goes on from the third answer');
    const after = await listSiblings(h.deps, actor, { threadId: root, turn: 2 });
    expect(after.reply.siblings.map((s) => s.thread_id)).toEqual([root, regenerations[1]]);
    expect(after.message.siblings.map((s) => s.thread_id)).toEqual([
      root,
      edited.thread_id,
      regenerations[0],
      regenerations[2],
      restored.thread_id,
    ]);
  });
});

describe('family cursor', () => {
  it('is stored server-side per user and survives a new session', async () => {
    const actor = await h.newUser();
    const root = await threeTurns(actor);
    const branch = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    expect(await getCursor(h.deps, actor, { threadId: root })).toEqual({ thread_id: root });
    await putCursor(h.deps, actor, { threadId: root, cursorThreadId: branch.thread_id });

    const other = await createHarness();
    try {
      expect(await getCursor(other.deps, actor, { threadId: root })).toEqual({ thread_id: branch.thread_id });
      expect(await getCursor(other.deps, actor, { threadId: branch.thread_id })).toEqual({ thread_id: branch.thread_id });
      const stranger = await other.newUser();
      await expect(getCursor(other.deps, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
      const unrelated = await other.newConversation(actor);
      await expect(putCursor(other.deps, actor, { threadId: root, cursorThreadId: unrelated })).rejects.toMatchObject({
        code: 'validation_failed',
      });
    } finally {
      await other.deps.close();
    }
  });
});

describe('only the active path reaches the model', () => {
  it('after an edit and after a regeneration the model input is exactly the displayed path', async () => {
    const actor = await h.newUser();
    const root = await threeTurns(actor);
    await h.turn(actor, root, 'fourth question');

    const edited = await editTurn(h.deps, actor, { threadId: root, turn: 3, content: 'third, edited' });
    await h.turn(actor, edited.thread_id, 'third, edited');
    const afterEdit = lastModelInput();
    expect(afterEdit.filter((_, i) => i % 2 === 0)).toEqual(['first question', 'second question', 'third, edited']);
    expect(afterEdit.join('\n')).not.toContain('third question');
    expect(afterEdit.join('\n')).not.toContain('fourth question');

    await drain(await regenerateTurn(h.deps, actor, { threadId: edited.thread_id, turn: 2 }));
    const afterRegen = lastModelInput();
    expect(afterRegen).toHaveLength(3);
    expect(afterRegen.filter((_, i) => i % 2 === 0)).toEqual(['first question', 'second question']);
    expect(afterRegen.join('\n')).not.toContain('third');

    const transcript = (await listMessages(h.deps, actor, { threadId: edited.thread_id, limit_turns: 50 })).messages;
    expect(transcript.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'first question',
      'second question',
      'third, edited',
    ]);
  });
});
