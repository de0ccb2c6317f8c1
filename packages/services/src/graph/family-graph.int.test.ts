import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleFamilyGraph, familyGraphScope, familyThreadSuffixes, type FamilyGraph } from '@trellis/domain';
import { reduceFamilyRows } from '@trellis/domain/graph/testing';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { deleteConversation } from '../conversations/delete-conversation';
import { getFamilyGraph } from './get-family-graph';
import { loadFamilyThreads, loadFamilyTurns, loadNewestFamilyTurns } from './family-rows';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

const CAPS = [0, 1, 2, 3, 5, 8, 500];

/**
 * A family with every shape the label and visibility rules care about: branches of the root and of
 * a branch, a tip continuation whose parent later moved on (its label flips), a stub that owns no
 * turn, and a soft-deleted branch with a live child.
 */
async function buildFamily(actor: { userId: string }) {
  const root = await h.newConversation(actor, 'Family');
  for (let i = 1; i <= 4; i++) await h.turn(actor, root, `root ${i}`);
  const a = (await createBranch(h.deps, actor, { threadId: root, from_turn: 2 })).thread_id;
  for (let i = 3; i <= 5; i++) await h.turn(actor, a, `a ${i}`);
  const tip = (await createBranch(h.deps, actor, { threadId: root, from_turn: 4 })).thread_id;
  await h.turn(actor, root, 'root 5');
  await h.turn(actor, tip, 'tip 5');
  const aa = (await createBranch(h.deps, actor, { threadId: a, from_turn: 4 })).thread_id;
  await h.turn(actor, aa, 'aa 5');
  const gone = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
  await h.turn(actor, gone, 'gone 2');
  const goneChild = (await createBranch(h.deps, actor, { threadId: gone, from_turn: 2 })).thread_id;
  await h.turn(actor, goneChild, 'gone child 3');
  await h.turn(actor, root, 'root 6');
  await createBranch(h.deps, actor, { threadId: root, from_turn: 3 }); // a stub
  await deleteConversation(h.deps, actor, { threadId: gone });
  return { root, requested: [root, a, tip, aa, goneChild] };
}

/** The reference: the complete rows, assembled without any of the reduced-row fields. */
async function completeRows(root: string) {
  const { threads } = await loadFamilyThreads(h.deps.db, root);
  return { threads, turns: [...(await loadFamilyTurns(h.deps.db, root))] };
}

async function expectSameAsComplete(actor: { userId: string }, root: string, requested: readonly string[]) {
  const rows = await completeRows(root);
  for (const threadId of requested) {
    for (const maxNodes of CAPS) {
      const expected: FamilyGraph = assembleFamilyGraph({ requestedThreadId: threadId, ...rows, maxNodes });
      const graph = await getFamilyGraph(h.deps, actor, { threadId, maxNodes });
      expect(graph, `${threadId} capped at ${maxNodes}`).toEqual(expected);

      // And the SQL fetches exactly the reference model's rows.
      const model = reduceFamilyRows(rows, { requestedThreadId: threadId, maxNodes });
      const family = await loadFamilyThreads(h.deps.db, threadId);
      const scope = familyGraphScope({ requestedThreadId: threadId, threads: family.threads });
      const { turns, ownedTurnCounts } = await loadNewestFamilyTurns(h.deps.db, scope, maxNodes);
      const key = (t: { thread_id: string; turn_index: number; previous_turn_index?: number | null }) =>
        `${t.thread_id}:${t.turn_index}<${t.previous_turn_index}`;
      expect(turns.map(key).sort()).toEqual(model.turns.map(key).sort());
      const labelKey = (t: { thread_id: string; turn_index: number }) => `${t.thread_id}:${t.turn_index}`;
      // As sets: the query skips the second witness when the first one is it.
      const labelKeys = (rows: readonly { thread_id: string; turn_index: number }[]) => [...new Set(rows.map(labelKey))].sort();
      expect(labelKeys(family.labelTurns)).toEqual(labelKeys(model.labelTurns));
      expect(ownedTurnCounts).toEqual(
        new Map(model.threads.flatMap((t) => (t.owned_turn_count === undefined ? [] : [[t.thread_id, t.owned_turn_count]]))),
      );
    }
  }
}

describe('getFamilyGraph reads only the newest turns yet answers as the whole family would', () => {
  it('matches the assembly of the complete rows for every thread and cap (deletes, stubs, a flipped tip continuation)', async () => {
    const actor = await h.newUser();
    const { root, requested } = await buildFamily(actor);
    const full = await getFamilyGraph(h.deps, actor, { threadId: requested[2]! });
    expect(full.threads.map((t) => t.suffix)).toEqual(['', '.1', '.2', '.1.1', '.4']);
    await expectSameAsComplete(actor, root, requested);
  });

  it('still matches when clocks tie to the millisecond, run backwards, and children predate their parents', async () => {
    const actor = await h.newUser();
    const { root, requested } = await buildFamily(actor);
    await h.deps.db.execute(sql`
      update workspace_snapshots s
      set captured_at = timestamptz '2025-01-01 00:00:00+00'
        + ((abs(hashtext(s.thread_id)) + s.turn_index * 7) % 4) * interval '1 millisecond'
        + (s.turn_index % 3) * interval '1 microsecond'
      from conversations c where c.thread_id = s.thread_id and c.root_thread_id = ${root}`);
    await h.deps.db.execute(sql`
      update conversations c
      set created_at = timestamptz '2025-01-01 00:00:00+00' + (abs(hashtext(c.thread_id)) % 5) * interval '1 millisecond'
      where c.root_thread_id = ${root}`);
    await expectSameAsComplete(actor, root, requested);
  });

  it('finds the label witnesses past a missing snapshot just above a fork (the turn k + 1 probe falls back to the ordered walk)', async () => {
    const actor = await h.newUser();
    const { root, requested } = await buildFamily(actor);
    // a forks the root at 2 and the tip continuation at 4: their first witnesses become turns 4 and 6
    await h.deps.db.execute(sql`delete from workspace_snapshots where thread_id = ${root} and turn_index in (3, 5)`);
    const rows = await completeRows(root);
    const model = reduceFamilyRows(rows, { requestedThreadId: root, maxNodes: 500 });
    const labelKey = (t: { thread_id: string; turn_index: number }) => `${t.thread_id}:${t.turn_index}`;
    const labelKeys = (list: readonly { thread_id: string; turn_index: number }[]) => [...new Set(list.map(labelKey))].sort();
    for (const threadId of requested) {
      const family = await loadFamilyThreads(h.deps.db, threadId);
      expect(labelKeys(family.labelTurns)).toEqual(labelKeys(model.labelTurns));
      expect(family.labelTurns.map(labelKey)).toContain(`${root}:4`);
      expect(familyThreadSuffixes({ requestedThreadId: threadId, ...family })).toEqual(
        familyThreadSuffixes({ requestedThreadId: threadId, threads: rows.threads, labelTurns: rows.turns }),
      );
    }
  });
});
