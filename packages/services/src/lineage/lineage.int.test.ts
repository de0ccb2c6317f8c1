import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageListSchema, newThreadId } from '@trellis/domain';
import { schema } from '@trellis/db';
import { deleteConversation } from '../conversations/delete-conversation';
import { sendTurn } from '../turns/send-turn';
import { collect, connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { listMessages } from './list-messages';
import { loadLineage, MAX_LINEAGE_DEPTH } from './load-lineage';

const admin = connectAdmin();
let deps: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  deps = createTestDeps();
});
afterAll(async () => {
  await deps.close();
  await admin.close();
});

/** A branch of `parent` at turn k, made by hand (branch creation belongs to the branching service). */
async function branch(parent: string, owner: string, k: number, status: 'pending' | 'active' = 'active'): Promise<string> {
  const threadId = newThreadId(randomUUID);
  await admin.db.execute(sql`
    insert into conversations (thread_id, user_id, root_thread_id, title, turn_index)
    select ${threadId}, ${owner}, root_thread_id, 'branch', ${k} from conversations where thread_id = ${parent}`);
  await admin.db.execute(sql`insert into documents (thread_id) values (${threadId})`);
  await admin.db.execute(sql`
    insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
    values (${threadId}, ${parent}, ${k}, ${owner}, ${status})`);
  return threadId;
}

async function turns(actor: { userId: string }, threadId: string, labels: string[]): Promise<void> {
  for (const content of labels) await collect(await sendTurn(deps, actor, { threadId, content }));
}

function userTurns(list: { messages: { role: string; turn_index: number; thread_id: string; content: string }[] }) {
  return list.messages.filter((m) => m.role === 'user').map((m) => [m.turn_index, m.thread_id, m.content]);
}

describe('lineage', () => {
  it('loads root → thread in one query, with branch points and tips', async () => {
    const actor = await newUser(admin);
    const root = await newThread(deps, actor);
    await turns(actor, root, ['r1', 'r2', 'r3']);
    const b = await branch(root, actor.userId, 2);
    await turns(actor, b, ['b3']);
    const c = await branch(b, actor.userId, 3);

    expect(await loadLineage(admin.db, root)).toEqual([
      { thread_id: root, branch_point_turn: null, turn_index: 3, user_id: actor.userId, root_thread_id: root, is_deleted: false, is_pending: false },
    ]);
    const lineage = await loadLineage(admin.db, c);
    expect(lineage.map((e) => [e.thread_id, e.branch_point_turn, e.turn_index])).toEqual([
      [root, null, 3],
      [b, 2, 3],
      [c, 3, 3],
    ]);
    expect(await loadLineage(admin.db, newThreadId(randomUUID))).toEqual([]);
  });

  it('stops at the depth cap and never follows a pending link', async () => {
    const actor = await newUser(admin);
    let thread = await newThread(deps, actor);
    const chain = [thread];
    for (let i = 0; i < MAX_LINEAGE_DEPTH + 10; i++) {
      thread = await branch(thread, actor.userId, 0);
      chain.push(thread);
    }
    const lineage = await loadLineage(admin.db, thread);
    expect(lineage).toHaveLength(MAX_LINEAGE_DEPTH + 1);
    expect(lineage.map((e) => e.thread_id)).toEqual(chain.slice(-(MAX_LINEAGE_DEPTH + 1)));

    const root = await newThread(deps, actor);
    const pending = await branch(root, actor.userId, 0, 'pending');
    const child = await branch(pending, actor.userId, 0);
    expect((await loadLineage(admin.db, child)).map((e) => e.thread_id)).toEqual([pending, child]);
    expect((await loadLineage(admin.db, pending)).at(-1)).toMatchObject({ is_pending: true, branch_point_turn: null });
  });
});

describe('listMessages', () => {
  it('shows ancestors’ turns up to each branch point, then the thread’s own, whatever the parent adds later', async () => {
    const actor = await newUser(admin);
    const root = await newThread(deps, actor);
    await turns(actor, root, ['r1', 'r2', 'r3', 'r4']);
    const b = await branch(root, actor.userId, 2);
    await turns(actor, b, ['b3', 'b4']);
    const c = await branch(b, actor.userId, 3);
    await turns(actor, c, ['c4', 'c5']);
    await turns(actor, root, ['r5']);

    const list = await listMessages(deps, actor, { threadId: c, limit_turns: 100 });
    expect(MessageListSchema.parse(list)).toEqual(list);
    expect(list.has_more).toBe(false);
    expect(userTurns(list)).toEqual([
      [1, root, 'r1'],
      [2, root, 'r2'],
      [3, b, 'b3'],
      [4, c, 'c4'],
      [5, c, 'c5'],
    ]);
    expect(list.messages.map((m) => `${m.turn_index}${m.role[0]}`)).toEqual(['1u', '1a', '2u', '2a', '3u', '3a', '4u', '4a', '5u', '5a']);
    expect(userTurns(await listMessages(deps, actor, { threadId: b, limit_turns: 100 }))).toEqual([
      [1, root, 'r1'],
      [2, root, 'r2'],
      [3, b, 'b3'],
      [4, b, 'b4'],
    ]);
    expect(userTurns(await listMessages(deps, actor, { threadId: root, limit_turns: 100 })).map((t) => t[2])).toEqual([
      'r1',
      'r2',
      'r3',
      'r4',
      'r5',
    ]);

    // A soft-deleted ancestor still lends its turns to a live branch, and only answers 404 itself.
    await deleteConversation(deps, actor, { threadId: root });
    expect(userTurns(await listMessages(deps, actor, { threadId: c, limit_turns: 100 }))).toHaveLength(5);
    await expect(listMessages(deps, actor, { threadId: root, limit_turns: 100 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('a branch of a branch reads each ancestor only up to the fork below it, on every page', async () => {
    // root r1..r6; b forks root at 2 and adds b3..b6; c forks b at 4 and adds c5, c6; d forks c at its
    // own fork point 4 (c lends it nothing) and adds d5. Every ancestor has turns past the fork below it.
    const actor = await newUser(admin);
    const root = await newThread(deps, actor);
    await turns(actor, root, ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    const b = await branch(root, actor.userId, 2);
    await turns(actor, b, ['b3', 'b4', 'b5', 'b6']);
    const c = await branch(b, actor.userId, 4);
    await turns(actor, c, ['c5', 'c6']);
    const d = await branch(c, actor.userId, 4);
    await turns(actor, d, ['d5']);

    const read = async (threadId: string, before_turn: number | undefined, limit_turns: number) =>
      userTurns(await listMessages(deps, actor, { threadId, before_turn, limit_turns })).map(([turn, owner, content]) => [
        turn,
        owner === root ? 'root' : owner === b ? 'b' : owner === c ? 'c' : 'd',
        content,
      ]);
    expect(await read(c, undefined, 100)).toEqual([
      [1, 'root', 'r1'],
      [2, 'root', 'r2'],
      [3, 'b', 'b3'],
      [4, 'b', 'b4'],
      [5, 'c', 'c5'],
      [6, 'c', 'c6'],
    ]);
    expect(await read(d, undefined, 100)).toEqual([
      [1, 'root', 'r1'],
      [2, 'root', 'r2'],
      [3, 'b', 'b3'],
      [4, 'b', 'b4'],
      [5, 'd', 'd5'],
    ]);
    // One turn a page, walking up across both fork points: never a turn the ancestor added past them.
    const pages = [];
    for (let before = 7; before > 1; before--) pages.push(...(await read(c, before, 1)));
    expect(pages.map((t) => t[2])).toEqual(['c6', 'c5', 'b4', 'b3', 'r2', 'r1']);
    expect(await read(c, 5, 2)).toEqual([
      [3, 'b', 'b3'],
      [4, 'b', 'b4'],
    ]);
    // Each message pair belongs to the thread that owns its turn.
    const list = await listMessages(deps, actor, { threadId: d, limit_turns: 100 });
    expect(list.messages.map((m) => `${m.turn_index}${m.role[0]}`)).toEqual(['1u', '1a', '2u', '2a', '3u', '3a', '4u', '4a', '5u', '5a']);
    expect(new Set(list.messages.filter((m) => m.turn_index >= 3 && m.turn_index <= 4).map((m) => m.thread_id))).toEqual(new Set([b]));
  });

  it('pages by turns from the newest, across the lineage', async () => {
    const actor = await newUser(admin);
    const root = await newThread(deps, actor);
    await turns(actor, root, ['1', '2', '3', '4', '5', '6']);
    const b = await branch(root, actor.userId, 4);
    await turns(actor, b, ['5b', '6b', '7b']);

    const page = async (before_turn: number | undefined, limit_turns: number) => {
      const list = await listMessages(deps, actor, { threadId: b, before_turn, limit_turns });
      return { turns: userTurns(list).map((t) => t[2]), has_more: list.has_more };
    };
    expect(await page(undefined, 3)).toEqual({ turns: ['5b', '6b', '7b'], has_more: true });
    expect(await page(5, 3)).toEqual({ turns: ['2', '3', '4'], has_more: true });
    expect(await page(2, 3)).toEqual({ turns: ['1'], has_more: false });
    expect(await page(1, 3)).toEqual({ turns: [], has_more: false });
    expect(await page(99, 2)).toEqual({ turns: ['6b', '7b'], has_more: true });
    expect(await page(undefined, 1000)).toEqual({ turns: ['1', '2', '3', '4', '5b', '6b', '7b'], has_more: false });
  });

  it('reads any lineage depth in one query', async () => {
    const actor = await newUser(admin);
    let thread = await newThread(deps, actor);
    await turns(actor, thread, ['t1']);
    const shallow = thread;
    for (let k = 1; k <= 12; k++) {
      thread = await branch(thread, actor.userId, k);
      await turns(actor, thread, [`t${k + 1}`]);
    }
    let queries = 0;
    const counted = drizzle(admin.sql, { schema, logger: { logQuery: () => void queries++ } });
    const count = async (threadId: string) => {
      queries = 0;
      const list = await listMessages({ db: counted }, actor, { threadId, limit_turns: 100 });
      return { queries, turns: userTurns(list).length };
    };
    expect(await count(shallow)).toEqual({ queries: 1, turns: 1 });
    expect(await count(thread)).toEqual({ queries: 1, turns: 13 });
  });

  it('answers 404 for unknown threads and 403 for someone else’s', async () => {
    const actor = await newUser(admin);
    const stranger = await newUser(admin);
    const threadId = await newThread(deps, actor);
    await expect(listMessages(deps, stranger, { threadId, limit_turns: 10 })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listMessages(deps, actor, { threadId: 'th_x', limit_turns: 10 })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await listMessages(deps, actor, { threadId, limit_turns: 10 })).toEqual({ messages: [], has_more: false, running_turn: null });
  });
});
