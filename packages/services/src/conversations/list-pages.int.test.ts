// Cursor pages of the conversation list: whole families per page, and every
// conversation that existed when paging began exactly once, while new
// conversations, new branches and turn-like updates land concurrently.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newThreadId } from '@trellis/domain';
import {
  connectAdmin,
  createTestDeps,
  newThread,
  newUser,
  prepareCheckpointer,
  type TestDeps,
} from '../testing/test-harness';
import { listConversations } from './list-conversations';

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

async function insertBranch(parent: string, owner: string): Promise<string> {
  const threadId = newThreadId(randomUUID);
  await admin.db.execute(sql`
    insert into conversations (thread_id, user_id, root_thread_id, title)
    select ${threadId}, ${owner}, root_thread_id, 'branch' from conversations where thread_id = ${parent}`);
  await admin.db.execute(sql`
    insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
    values (${threadId}, ${parent}, 0, ${owner}, 'active')`);
  return threadId;
}

it(
  'pages return every conversation exactly once, families whole, under concurrent inserts and updates',
  { timeout: 120_000 },
  async () => {
    const actor = await newUser(admin);
    const roots: string[] = [];
    for (let i = 0; i < 30; i++) roots.push(await newThread(deps, actor, `family ${i}`));
    const existing = new Map(roots.map((r) => [r, r]));
    for (let i = 0; i < 12; i++) {
      const root = roots[(i * 7) % roots.length]!;
      const branch = await insertBranch(root, actor.userId);
      existing.set(branch, root);
    }

    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        const fresh = await newThread(deps, actor, `new ${n}`);
        await insertBranch(roots[n % roots.length]!, actor.userId);
        await insertBranch(fresh, actor.userId);
        // what a turn does to a row: the "most recently updated" order moves under the pager
        await admin.db.execute(
          sql`update conversations set updated_at = now() where thread_id = ${roots[(n * 11) % roots.length]!}`,
        );
        n++;
      }
      return n;
    })();

    const seen = new Map<string, number>();
    const pageOfFamily = new Map<string, number>();
    let cursor: string | undefined;
    let pages = 0;
    try {
      do {
        const page = await listConversations(deps, actor, {
          limit: 4,
          ...(cursor === undefined ? {} : { cursor }),
        });
        pages++;
        for (const c of page.conversations) {
          seen.set(c.thread_id, (seen.get(c.thread_id) ?? 0) + 1);
          const earlier = pageOfFamily.get(c.root_thread_id);
          expect(earlier === undefined || earlier === pages).toBe(true); // a family never spans pages
          pageOfFamily.set(c.root_thread_id, pages);
        }
        // families come whole and contiguous inside a page
        const order = page.conversations.map((c) => c.root_thread_id);
        expect(order.filter((r, i) => i === 0 || order[i - 1] !== r)).toEqual([...new Set(order)]);
        cursor = page.next_cursor ?? undefined;
        await new Promise((r) => setTimeout(r, 5));
      } while (cursor !== undefined);
    } finally {
      writing = false;
    }
    expect(await writer).toBeGreaterThan(0);

    for (const [threadId] of existing) expect(seen.get(threadId)).toBe(1);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(pages).toBeGreaterThan(5);
  },
);

it('a cursor that this list did not return is a 400, not a 500', async () => {
  const actor = await newUser(admin);
  await expect(listConversations(deps, actor, { limit: 5, cursor: 'bm9wZQ' })).rejects.toMatchObject({
    code: 'bad_request',
  });
});

it('without a limit the list is unpaged and most recently updated first, as before', async () => {
  const actor = await newUser(admin);
  const a = await newThread(deps, actor, 'a');
  const b = await newThread(deps, actor, 'b');
  await admin.db.execute(
    sql`update conversations set updated_at = now() + interval '1 minute' where thread_id = ${a}`,
  );
  const list = await listConversations(deps, actor);
  expect(list.conversations.map((c) => c.thread_id)).toEqual([a, b]);
  expect(list.next_cursor).toBeUndefined();
});
