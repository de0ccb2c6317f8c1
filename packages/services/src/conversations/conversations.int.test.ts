import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationSchema, newThreadId } from '@trellis/domain';
import { connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { createConversation } from './create-conversation';
import { deleteConversation } from './delete-conversation';
import { getConversation } from './get-conversation';
import { listConversations } from './list-conversations';
import { updateConversation as renameConversation } from './update-conversation';

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

/** A branch row made by hand (branch creation is the branching service's job). */
async function insertBranch(parent: string, owner: string, k: number, status: 'pending' | 'active'): Promise<string> {
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

describe('conversations', () => {
  it('creates a root thread that is its own family root, with the contract shape', async () => {
    const actor = await newUser(admin);
    const created = await createConversation(deps, actor, { title: 'Essay' });
    expect(ConversationSchema.parse(created)).toEqual(created);
    expect(created).toMatchObject({
      title: 'Essay',
      turn_index: 0,
      message_count: 0,
      root_thread_id: created.thread_id,
      parent_thread_id: null,
      branch_point_turn: null,
    });
    expect(created.thread_id).toMatch(/^th_[0-9a-f]{32}$/);
    expect((await createConversation(deps, actor, {})).title).toBe('New conversation');
  });

  it('lists only the caller’s live threads, newest update first', async () => {
    const actor = await newUser(admin);
    const other = await newUser(admin);
    const first = await newThread(deps, actor, 'first');
    const second = await newThread(deps, actor, 'second');
    const gone = await newThread(deps, actor, 'gone');
    await newThread(deps, other, 'not mine');
    await deleteConversation(deps, actor, { threadId: gone });
    await renameConversation(deps, actor, { threadId: first, title: 'first, renamed' });

    const { conversations } = await listConversations(deps, actor);
    expect(conversations.map((c) => c.thread_id)).toEqual([first, second]);
    expect(conversations[0]!.title).toBe('first, renamed');
  });

  it('lists active branches with their lineage link and never a pending one', async () => {
    const actor = await newUser(admin);
    const root = await newThread(deps, actor);
    const active = await insertBranch(root, actor.userId, 0, 'active');
    const pending = await insertBranch(root, actor.userId, 0, 'pending');

    const listed = (await listConversations(deps, actor)).conversations;
    expect(listed.map((c) => c.thread_id).sort()).toEqual([root, active].sort());
    expect(listed.find((c) => c.thread_id === active)).toMatchObject({
      parent_thread_id: root,
      branch_point_turn: 0,
      root_thread_id: root,
    });
    await expect(getConversation(deps, actor, { threadId: pending })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('takes a deleted thread’s subtree out of the list, while its descendants stay reachable by id', async () => {
    const actor = await newUser(admin);
    const root = await newThread(deps, actor);
    const kept = await insertBranch(root, actor.userId, 0, 'active');
    const deleted = await insertBranch(root, actor.userId, 0, 'active');
    const child = await insertBranch(deleted, actor.userId, 0, 'active');
    const grandchild = await insertBranch(child, actor.userId, 0, 'active');
    await deleteConversation(deps, actor, { threadId: deleted });

    const listed = (await listConversations(deps, actor)).conversations.map((c) => c.thread_id);
    expect(listed.sort()).toEqual([root, kept].sort());
    expect((await getConversation(deps, actor, { threadId: grandchild })).parent_thread_id).toBe(child);
  });

  it('answers 404 for unknown, malformed and soft-deleted threads, 403 for someone else’s', async () => {
    const actor = await newUser(admin);
    const stranger = await newUser(admin);
    const threadId = await newThread(deps, actor);

    for (const unknown of [newThreadId(randomUUID), 'th_nope', "th_'; drop table x"]) {
      await expect(getConversation(deps, actor, { threadId: unknown })).rejects.toMatchObject({ code: 'not_found' });
    }
    await expect(getConversation(deps, stranger, { threadId })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(renameConversation(deps, stranger, { threadId, title: 'x' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(deleteConversation(deps, stranger, { threadId })).rejects.toMatchObject({ code: 'forbidden' });

    await deleteConversation(deps, actor, { threadId });
    await expect(getConversation(deps, actor, { threadId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(deleteConversation(deps, actor, { threadId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(getConversation(deps, stranger, { threadId })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('renames and bumps updated_at', async () => {
    const actor = await newUser(admin);
    const created = await createConversation(deps, actor, {});
    const renamed = await renameConversation(deps, actor, { threadId: created.thread_id, title: 'Better' });
    expect(renamed.title).toBe('Better');
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect(await getConversation(deps, actor, { threadId: created.thread_id })).toEqual(renamed);
  });
});
