import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateBranchSchema } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from './create-branch';
import { getRestoreView } from './get-restore-view';
import { listMessages } from '../lineage/list-messages';
import { getWorkspace } from '../workspace/get-workspace';
import { listConversations } from '../conversations/list-conversations';
import { deleteConversation } from '../conversations/delete-conversation';
import { updatePreference } from '../workspace/update-preference';
import { getFamilyGraph } from '../graph/get-family-graph';
import type { FaultPoint } from '../deps';
import { expectCode } from '../testing/expect-code';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

async function countRows(table: string, threadColumn: string, threadId: string): Promise<number> {
  const rows = await h.deps.db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(threadColumn)} = ${threadId}`,
  );
  return rows[0]!.n;
}

async function checkpointThreads(): Promise<number> {
  const rows = await h.deps.db.execute<{ n: number }>(sql`select count(distinct thread_id)::int as n from langgraph.checkpoints`);
  return rows[0]!.n;
}

/** A thread with three turns that shape every workspace surface. */
async function threeTurnThread(actor: { userId: string }) {
  const threadId = await h.newConversation(actor, 'Essay');
  await h.turn(actor, threadId, 'objective: Write an essay on trellises\ndoc: # Draft\n\nFirst.\nprefer: Short sentences\ntodo: Outline\n  todo: Intro');
  await h.turn(actor, threadId, 'append: Second paragraph.\nartifact: Notes | turn two notes\nprefer: British spelling');
  await h.turn(actor, threadId, 'done: Outline\nartifact: More | turn three notes\ntodo: Conclusion');
  return threadId;
}

describe('createBranch validation', () => {
  it('404 unknown, 404 soft-deleted, 403 not yours, 422 negative, 404 beyond the tip, 400 at or below own branch point, 409 missing snapshot', async () => {
    const owner = await h.newUser();
    const stranger = await h.newUser();
    const threadId = await threeTurnThread(owner);

    await expectCode(createBranch(h.deps, owner, { threadId: 'th_00000000000000000000000000000000',  from_turn: 1 }), 'not_found');
    await expectCode(createBranch(h.deps, stranger, { threadId: threadId,  from_turn: 1 }), 'forbidden');
    expect(CreateBranchSchema.safeParse({ from_turn: -1 }).success).toBe(false);
    await expectCode(createBranch(h.deps, owner, { threadId: threadId,  from_turn: 4 }), 'not_found');

    const child = await createBranch(h.deps, owner, { threadId: threadId,  from_turn: 2 });
    await expectCode(createBranch(h.deps, owner, { threadId: child.thread_id,  from_turn: 2 }), 'bad_request');
    await expectCode(createBranch(h.deps, owner, { threadId: child.thread_id,  from_turn: 1 }), 'bad_request');

    await h.deps.db.execute(sql`delete from workspace_snapshots where thread_id = ${threadId} and turn_index = 2`);
    await expectCode(createBranch(h.deps, owner, { threadId: threadId,  from_turn: 1 }), 'conflict');

    const deleted = await h.newConversation(owner);
    await deleteConversation(h.deps, owner, { threadId: deleted });
    await expectCode(createBranch(h.deps, owner, { threadId: deleted,  from_turn: 0 }), 'not_found');
  });
});

describe('createBranch copies (docs/branching.md, "Creating a branch: three phases and the sweeper")', () => {
  it('copies the workspace after turn k (snapshot k+1): document, objective, locked preferences, todos with depth, artifacts ≤ k in id order; no snapshots; numbering continues', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const before = await getWorkspace(h.deps, actor, { threadId: threadId });
    const locked = before.preferences.find((p) => p.text === 'Short sentences')!;
    await updatePreference(h.deps, actor, { threadId, preferenceId: locked.id, patch: { locked: true } });
    // one more turn so that the lock is in snapshot 4; branch at 2 must not see it
    await h.turn(actor, threadId, 'hello');

    const view = await getRestoreView(h.deps, actor, { threadId, turn: 2 });
    const branch = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 2, reason: 'try another intro' });
    expect(branch).toMatchObject({ parent_thread_id: threadId, branch_point_turn: 2, title: 'Essay' });

    const ws = await getWorkspace(h.deps, actor, { threadId: branch.thread_id });
    expect(ws.objective).toBe('Write an essay on trellises');
    expect(ws.document.content).toBe(view.workspace.document.content);
    expect(ws.document.content).toContain('Second paragraph.');
    expect(ws.preferences.map((p) => [p.text, p.locked, p.position])).toEqual([
      ['Short sentences', false, 0],
      ['British spelling', false, 1],
    ]);
    expect(ws.todos.map((t) => [t.text, t.depth, t.done])).toEqual([
      ['Outline', 0, false],
      ['Intro', 1, false],
    ]);
    expect(ws.artifacts.map((a) => [a.title, a.turn_index])).toEqual([['Notes', 2]]);
    expect(await countRows('workspace_snapshots', 'thread_id', branch.thread_id)).toBe(0);
    const [conv] = (await listConversations(h.deps, actor)).conversations.filter((c) => c.thread_id === branch.thread_id);
    expect(conv).toMatchObject({ turn_index: 2, parent_thread_id: threadId, branch_point_turn: 2 });

    // branching at the tip copies the live rows, lock included
    const tip = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 4 });
    const tipWs = await getWorkspace(h.deps, actor, { threadId: tip.thread_id });
    expect(tipWs.preferences.find((p) => p.text === 'Short sentences')?.locked).toBe(true);
    expect(tipWs.todos.find((t) => t.text === 'Outline')?.done).toBe(true);
    expect(tipWs.artifacts.map((a) => a.title)).toEqual(['Notes', 'More']);
  });

  it('defaults older snapshots without objective, lock or depth to none, unlocked and 0', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    await h.deps.db.execute(sql`
      update workspace_snapshots set objective = null,
        preferences = (select coalesce(jsonb_agg(p - 'locked'), '[]'::jsonb) from jsonb_array_elements(preferences) p),
        todos = (select coalesce(jsonb_agg(t - 'depth'), '[]'::jsonb) from jsonb_array_elements(todos) t)
      where thread_id = ${threadId} and turn_index = 2`);
    const branch = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 1 });
    const ws = await getWorkspace(h.deps, actor, { threadId: branch.thread_id });
    expect(ws.objective).toBeNull();
    expect(ws.preferences.every((p) => !p.locked)).toBe(true);
    expect(ws.todos.map((t) => t.depth)).toEqual([0, 0]);
  });

  it('seeds from an edited-preview override field by field, ignoring client positions; an empty body seeds no document', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const branch = await createBranch(h.deps, actor, { threadId: threadId, 
      from_turn: 2,
      workspace: {
        preferences: [{ text: 'Newly locked', locked: true }, { text: 'Plain' }],
        todos: [{ text: 'Only todo', depth: 2, done: true }],
      },
    });
    const ws = await getWorkspace(h.deps, actor, { threadId: branch.thread_id });
    expect(ws.preferences.map((p) => [p.text, p.locked, p.position])).toEqual([
      ['Newly locked', true, 0],
      ['Plain', false, 1],
    ]);
    expect(ws.todos.map((t) => [t.text, t.depth, t.done, t.position])).toEqual([['Only todo', 2, true, 0]]);
    expect(ws.objective).toBe('Write an essay on trellises'); // fallback
    expect(ws.document.content).toContain('Second paragraph.'); // fallback

    const emptied = await createBranch(h.deps, actor, { threadId: threadId, 
      from_turn: 2,
      workspace: { objective: 'Another aim', document: { content: '' } },
    });
    const ews = await getWorkspace(h.deps, actor, { threadId: emptied.thread_id });
    expect(ews.objective).toBe('Another aim');
    expect(ews.document.content).toBe('');
    expect(ews.preferences.map((p) => p.text)).toEqual(['Short sentences', 'British spelling']);

    await h.deps.db.execute(sql`delete from workspace_snapshots where thread_id = ${threadId} and turn_index = 3`);
    await expectCode(createBranch(h.deps, actor, { threadId: threadId,  from_turn: 2, workspace: { objective: 'x' } }), 'conflict');
  });
});

describe('the prefix rule', () => {
  it('a branch shows every message before the (k+1)-th user message, then its own; its parent never leaks in later', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const branch = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 2 });
    await h.turn(actor, threadId, 'parent continues');
    const before = (await listMessages(h.deps, actor, { threadId: branch.thread_id, limit_turns: 100 })).messages;
    expect(before.map((m) => [m.turn_index, m.role])).toEqual([
      [1, 'user'],
      [1, 'assistant'],
      [2, 'user'],
      [2, 'assistant'],
    ]);
    await h.turn(actor, branch.thread_id, 'branch speaks');
    const after = (await listMessages(h.deps, actor, { threadId: branch.thread_id, limit_turns: 100 })).messages;
    expect(after.map((m) => m.turn_index)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(after[4]).toMatchObject({ content: 'branch speaks', thread_id: branch.thread_id });
    expect(after.some((m) => m.content === 'parent continues')).toBe(false);

    // the model on the branch saw exactly the path: the prefix and the new message
    const lastCall = h.model.received.at(-1)!;
    const contents = lastCall.filter((m) => m.getType() !== 'system').map((m) => m.text);
    expect(contents.some((c) => c.includes('parent continues'))).toBe(false);
    expect(contents.at(-1)).toBe('branch speaks');
    expect(contents.filter((c) => c.startsWith('objective:') || c.startsWith('append:'))).toHaveLength(2);
  });

  it('from_turn = 0 forks from the empty start; a branch of a branch nests; a branch at the tip keeps the final reply', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const empty = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 0 });
    expect((await listMessages(h.deps, actor, { threadId: empty.thread_id, limit_turns: 100 })).messages).toEqual([]);
    const emptyWs = await getWorkspace(h.deps, actor, { threadId: empty.thread_id });
    expect(emptyWs.document.content).toBe('');
    expect(emptyWs.artifacts).toEqual([]);

    const b1 = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 1 });
    await h.turn(actor, b1.thread_id, 'b1 turn two');
    await h.turn(actor, b1.thread_id, 'b1 turn three');
    const b2 = await createBranch(h.deps, actor, { threadId: b1.thread_id,  from_turn: 2 });
    const nested = (await listMessages(h.deps, actor, { threadId: b2.thread_id, limit_turns: 100 })).messages;
    expect(nested.map((m) => [m.turn_index, m.thread_id])).toEqual([
      [1, threadId],
      [1, threadId],
      [2, b1.thread_id],
      [2, b1.thread_id],
    ]);

    const tip = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 3 });
    const tipMessages = (await listMessages(h.deps, actor, { threadId: tip.thread_id, limit_turns: 100 })).messages;
    expect(tipMessages).toHaveLength(6);
    expect(tipMessages.at(-1)?.role).toBe('assistant');
  });
});

describe('restore view', () => {
  it('returns snapshot k+1 or the live rows and the transcript up to k, and creates nothing', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const threadsBefore = (await listConversations(h.deps, actor)).conversations.length;
    const v1 = await getRestoreView(h.deps, actor, { threadId, turn: 1 });
    expect(v1.turn_index).toBe(1);
    expect(v1.messages.map((m) => m.turn_index)).toEqual([1, 1]);
    expect(v1.workspace.document.content).not.toContain('Second paragraph.');
    expect(v1.workspace.preferences.map((p) => p.text)).toEqual(['Short sentences']);
    const v3 = await getRestoreView(h.deps, actor, { threadId, turn: 3 });
    expect(v3.workspace).toEqual(await getWorkspace(h.deps, actor, { threadId: threadId }));
    const v0 = await getRestoreView(h.deps, actor, { threadId, turn: 0 });
    expect(v0.messages).toEqual([]);
    expect((await listConversations(h.deps, actor)).conversations.length).toBe(threadsBefore);
    await expectCode(getRestoreView(h.deps, actor, { threadId, turn: 9 }), 'not_found');
  });
});

describe('three phases with compensation', () => {
  it.each(['branch.after-tx1', 'branch.seed', 'branch.tx2'] as const)(
    'a failure at %s leaves zero rows and zero checkpointer threads, and answers 502',
    async (point: FaultPoint) => {
      const faulty = await createHarness({
        fault: async (p) => {
          if (p === point) throw new Error(`injected at ${p}`);
        },
      });
      try {
        const actor = await faulty.newUser();
        const threadId = await h.newConversation(actor);
        await h.turn(actor, threadId, 'one');
        const conversations = await h.deps.db.execute<{ n: number }>(
          sql`select count(*)::int as n from conversations where user_id = ${actor.userId}`,
        );
        const threadsBefore = await checkpointThreads();
        await expectCode(createBranch(faulty.deps, actor, { threadId: threadId,  from_turn: 1 }), 'upstream_failed');
        const after = await h.deps.db.execute<{ n: number }>(
          sql`select count(*)::int as n from conversations where user_id = ${actor.userId}`,
        );
        expect(after[0]!.n).toBe(conversations[0]!.n);
        expect(await countRows('conversation_branches', 'user_id', actor.userId)).toBe(0);
        expect(await checkpointThreads()).toBe(threadsBefore);
        // and a retry without the fault succeeds
        const ok = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 1 });
        expect(ok.parent_thread_id).toBe(threadId);
      } finally {
        await faulty.deps.close();
      }
    },
  );

  it('50 concurrent branch creations from one thread all succeed with distinct threads and a consistent graph', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createBranch(h.deps, actor, { threadId: threadId,  from_turn: 1 + (i % 3), reason: `b${i}` })),
    );
    expect(new Set(results.map((r) => r.thread_id)).size).toBe(50);
    for (const r of results) await h.turn(actor, r.thread_id, `on ${r.thread_id}`);
    const graph = await getFamilyGraph(h.deps, actor, { threadId: threadId });
    expect(graph.threads).toHaveLength(51);
    expect(new Set(graph.nodes.map((n) => n.label)).size).toBe(graph.nodes.length);
    expect(graph.nodes).toHaveLength(3 + 50);
    const ids = new Set(graph.nodes.map((n) => n.id));
    expect(graph.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    const pending = await h.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from conversation_branches where parent_thread_id = ${threadId} and status <> 'active'`,
    );
    expect(pending[0]!.n).toBe(0);
  });
});

describe('family graph', () => {
  it('uses the same number of SQL round trips for a small and a large family', async () => {
    const counted: string[] = [];
    const probe = await createHarness({ onQuery: (q) => counted.push(q) });
    try {
      const actor = await probe.newUser();
      const small = await probe.newConversation(actor);
      await probe.turn(actor, small, 'one');
      const large = await probe.newConversation(actor);
      for (let i = 0; i < 6; i++) await probe.turn(actor, large, `turn ${i}`);
      let parent = large;
      for (let i = 0; i < 5; i++) {
        const b = await createBranch(probe.deps, actor, { threadId: parent,  from_turn: 6 + i });
        await probe.turn(actor, b.thread_id, `branch ${i}`);
        parent = b.thread_id;
      }
      // warm every pooled connection (a new connection fetches types once)
      await Promise.all(Array.from({ length: 4 }, () => getFamilyGraph(probe.deps, actor, { threadId: small })));
      counted.length = 0;
      await getFamilyGraph(probe.deps, actor, { threadId: small });
      const smallCount = counted.length;
      counted.length = 0;
      const graph = await getFamilyGraph(probe.deps, actor, { threadId: parent });
      expect(graph.threads.length).toBe(6);
      expect(counted.length).toBe(smallCount);
      expect(smallCount).toBeLessThanOrEqual(3);
    } finally {
      await probe.deps.close();
    }
  });

  it('a soft-deleted branch takes its subtree out of lists and graphs, unless it is an ancestor of the requested thread', async () => {
    const actor = await h.newUser();
    const threadId = await threeTurnThread(actor);
    const a = await createBranch(h.deps, actor, { threadId: threadId,  from_turn: 1 });
    await h.turn(actor, a.thread_id, 'a2');
    const aChild = await createBranch(h.deps, actor, { threadId: a.thread_id,  from_turn: 2 });
    await h.turn(actor, aChild.thread_id, 'a3');
    await deleteConversation(h.deps, actor, { threadId: a.thread_id });

    const listed = (await listConversations(h.deps, actor)).conversations.map((c) => c.thread_id);
    expect(listed).toContain(threadId);
    expect(listed).not.toContain(a.thread_id);
    expect(listed).not.toContain(aChild.thread_id);

    const fromRoot = await getFamilyGraph(h.deps, actor, { threadId: threadId });
    expect(fromRoot.threads.map((t) => t.thread_id)).toEqual([threadId]);
    // the descendant is still reachable by id and still renders its deleted ancestor's turns
    const fromChild = await getFamilyGraph(h.deps, actor, { threadId: aChild.thread_id });
    expect(fromChild.threads.find((t) => t.thread_id === a.thread_id)?.is_deleted).toBe(true);
    expect(fromChild.nodes.filter((n) => n.is_on_active_path).map((n) => n.label)).toEqual(['1', '2.1', '3.1']);
  });
});
