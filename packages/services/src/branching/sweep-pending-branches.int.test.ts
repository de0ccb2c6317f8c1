import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { createHarness, type Harness } from '../testing/harness';
import { listConversations } from '../conversations/list-conversations';
import { sweepPendingBranches } from './sweep-pending-branches';
import { createBranch } from './create-branch';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

async function pendingFor(userId: string) {
  return h.deps.db.execute<{ thread_id: string }>(
    sql`select thread_id from conversation_branches where user_id = ${userId} and status = 'pending'`,
  );
}

describe('pending branch sweeper', () => {
  it('reclaims the pending branch of a process SIGKILLed between TX1 and TX2; readers never saw it', async () => {
    const actor = await h.newUser();
    const threadId = await h.newConversation(actor);
    await h.turn(actor, threadId, 'prefer: keep it\ntodo: one');
    // The sweeper works database-wide: first reclaim what earlier test files' killed processes
    // left pending, so the counts below are this test's branch alone.
    await sweepPendingBranches(h.deps, { olderThanSeconds: 0, batch: 1000 });

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, '../testing/branch-then-hang.child.ts'), testDatabaseUrl(), actor.userId, threadId],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => c.toString().includes('AFTER_TX1') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited with ${code} before TX1 finished`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const [pending] = await pendingFor(actor.userId);
    expect(pending).toBeDefined();
    const listed = (await listConversations(h.deps, actor)).conversations.map((c) => c.thread_id);
    expect(listed).toEqual([threadId]);

    // Within the grace period nothing is reclaimed; past it, exactly that branch.
    expect(await sweepPendingBranches(h.deps, { olderThanSeconds: 3600 })).toBe(0);
    await h.deps.db.execute(sql`update conversation_branches set created_at = now() - interval '1 hour' where thread_id = ${pending!.thread_id}`);
    expect(await sweepPendingBranches(h.deps, { olderThanSeconds: 60 })).toBe(1);
    expect(await pendingFor(actor.userId)).toHaveLength(0);
    const rows = await h.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from conversations where thread_id = ${pending!.thread_id}`);
    expect(rows[0]!.n).toBe(0);
    const preferences = await h.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from preferences where thread_id = ${pending!.thread_id}`);
    expect(preferences[0]!.n).toBe(0);
    // idempotent
    expect(await sweepPendingBranches(h.deps, { olderThanSeconds: 60 })).toBe(0);
  });

  it('is safe when several sweepers run at once: each stale branch is reclaimed exactly once', async () => {
    const actor = await h.newUser();
    const threadId = await h.newConversation(actor);
    await h.turn(actor, threadId, 'one');
    const made = await Promise.all(Array.from({ length: 6 }, () => createBranch(h.deps, actor, { threadId: threadId,  from_turn: 1 })));
    const ids = made.map((m) => m.thread_id);
    await h.deps.db.execute(
      sql`update conversation_branches set status = 'pending', created_at = now() - interval '1 hour' where thread_id in ${sql.raw(`('${ids.join("','")}')`)}`,
    );
    const others = await Promise.all([createHarness(), createHarness()]);
    try {
      const counts = await Promise.all([h.deps, ...others.map((o) => o.deps)].map((d) => sweepPendingBranches(d, { olderThanSeconds: 60, batch: 2 })));
      let total = counts.reduce((a, b) => a + b, 0);
      while ((await pendingFor(actor.userId)).length > 0) total += await sweepPendingBranches(h.deps, { olderThanSeconds: 60 });
      expect(total).toBe(6);
    } finally {
      await Promise.all(others.map((o) => o.deps.close()));
    }
  });
});
