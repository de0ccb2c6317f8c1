import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Replay } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createBranch } from '../branching/create-branch';
import { listChanges } from '../changes/list-changes';
import { getWorkspace } from '../workspace/get-workspace';
import { patchWorkspace } from '../workspace/patch-workspace';
import { createTodo } from '../workspace/create-todo';
import { updateTodo } from '../workspace/update-todo';
import { deleteTodo } from '../workspace/delete-todo';
import { reorderTodos } from '../workspace/reorder-todos';
import { readSnapshotState, toState } from '../workspace/snapshot-state';
import { replayChange } from './replay-change';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };

async function replayAll(actor: Actor, threadId: string): Promise<Replay[]> {
  const first = await replayChange(h.deps, actor, { threadId, seq: 1 });
  const rest = [];
  for (let seq = 2; seq <= first.total; seq++)
    rest.push(await replayChange(h.deps, actor, { threadId, seq }));
  return [first, ...rest];
}

/** Every replayed step's last change gives the next step's stored snapshot; the path's last gives the live workspace. */
async function expectStepBoundaries(actor: Actor, threadId: string, replays: Replay[]) {
  let boundaries = 0;
  for (const [i, replay] of replays.entries()) {
    const next = replays[i + 1];
    if (next && next.change.turn === replay.change.turn) continue;
    if (next) {
      const snapshot = await readSnapshotState(h.deps.db, next.step.thread_id, next.change.turn);
      expect(snapshot, `snapshot ${next.change.turn}`).not.toBeNull();
      expect(replay.workspace, `after step ${replay.step.label}`).toEqual(snapshot);
    } else {
      expect(replay.workspace).toEqual(toState(await getWorkspace(h.deps, actor, { threadId })));
    }
    boundaries++;
  }
  return boundaries;
}

describe('GET …/replay', () => {
  it('passes every change of a path in order, and each step ends on the snapshot stored for it', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor, 'Replay');
    await patchWorkspace(h.deps, actor, {
      threadId: thread,
      patch: { document: { title: 'Notes', content: 'I wrote this.' } },
    });
    const first = await createTodo(h.deps, actor, { threadId: thread, todo: { text: 'Read the paper' } });
    await h.turn(
      actor,
      thread,
      'objective: Review the paper\ntodo: Check the method\ntodo: Check the data\nappend: The agent wrote that.',
    );
    await updateTodo(h.deps, actor, { threadId: thread, todoId: first.id, patch: { done: true } });
    const todos = (await getWorkspace(h.deps, actor, { threadId: thread })).todos;
    await reorderTodos(h.deps, actor, { threadId: thread, ids: todos.map((t) => t.id).reverse() });
    await h.turn(actor, thread, 'append: A second paragraph.\nprefer: Short sentences');
    await deleteTodo(h.deps, actor, { threadId: thread, todoId: first.id });
    const live = await getWorkspace(h.deps, actor, { threadId: thread });
    await patchWorkspace(h.deps, actor, {
      threadId: thread,
      patch: {
        document: {
          content: live.document.content.replace('wrote this', 'wrote this first'),
          base_version: live.document.version,
        },
      },
    });

    const log = (await listChanges(h.deps, actor, { threadId: thread, limit: 500 })).changes;
    const countBefore = await h.deps.db.execute(
      sql`select count(*)::int as n from workspace_changes where thread_id = ${thread}`,
    );
    const replays = await replayAll(actor, thread);
    expect(replays.map((r) => r.change)).toEqual(log);
    expect(replays.map((r) => r.seq)).toEqual(log.map((_, i) => i + 1));
    expect(new Set(replays.map((r) => r.total))).toEqual(new Set([log.length]));
    expect(new Set(replays.map((r) => r.change.turn))).toEqual(new Set([0, 1, 2]));
    expect(await expectStepBoundaries(actor, thread, replays)).toBe(3);
    // What each change did, with its actor: the person's first words, the agent's append.
    expect(replays[0]!.diff.summary).toBe('renamed the document');
    const agentAppend = replays.find((r) => r.change.actor === 'agent' && r.diff.target === 'document')!;
    expect(
      agentAppend.diff.parts
        .filter((p) => p.kind === 'insert')
        .map((p) => p.text)
        .join(''),
    ).toContain('The agent wrote that.');
    expect(agentAppend.step).toMatchObject({
      turn: 1,
      label: '1',
      message: expect.stringContaining('objective: Review the paper'),
    });
    expect(replays[0]!.step).toMatchObject({ turn: 0, label: '0', message: null });
    // Replay only reads.
    expect(
      await h.deps.db.execute(
        sql`select count(*)::int as n from workspace_changes where thread_id = ${thread}`,
      ),
    ).toEqual(countBefore);
  });

  it('replays a branch through its parent’s changes up to the branch point, then its own', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Replay branch');
    await patchWorkspace(h.deps, actor, { threadId: root, patch: { document: { content: 'Root text.' } } });
    await h.turn(actor, root, 'append: Step one.');
    await h.turn(actor, root, 'append: Step two, not inherited.');
    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, branch, 'append: The branch’s own step.\ntodo: Branch work');

    const log = (await listChanges(h.deps, actor, { threadId: branch, limit: 500 })).changes;
    const replays = await replayAll(actor, branch);
    expect(replays.map((r) => r.change)).toEqual(log);
    expect(
      replays.some((r) => r.change.thread_id === root) && replays.some((r) => r.change.thread_id === branch),
    ).toBe(true);
    expect(replays.every((r) => !r.workspace.document.content.includes('not inherited'))).toBe(true);
    await expectStepBoundaries(actor, branch, replays);
    expect(replays.at(-1)!.step).toMatchObject({ turn: 2, thread_id: branch });
  });

  it('answers 404 for an unknown conversation, 403 for another user’s and 422 past the last change', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor);
    await patchWorkspace(h.deps, actor, { threadId: thread, patch: { document: { content: 'One.' } } });
    expect((await replayChange(h.deps, actor, { threadId: thread, seq: 1 })).total).toBe(1);
    await expectCode(replayChange(h.deps, actor, { threadId: thread, seq: 2 }), 'validation_failed');
    await expectCode(replayChange(h.deps, await h.newUser(), { threadId: thread, seq: 1 }), 'forbidden');
    await expectCode(replayChange(h.deps, actor, { threadId: 'no-such-thread', seq: 1 }), 'not_found');
    const empty = await h.newConversation(actor);
    await expectCode(replayChange(h.deps, actor, { threadId: empty, seq: 1 }), 'validation_failed');
  });
});
