// The graph's newest-turns rule read down the (family root, captured_at) index gives the same rows
// as the original implementation that sorted and counted the whole family, on random families:
// random turns and branches, random caps, visibility of random threads, clocks that tie and run
// backwards.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { familyGraphScope } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { loadFamilyThreads, loadNewestFamilyTurns } from './family-rows';
import { loadNewestFamilyTurnsBySorting } from './newest-turns-reference';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

const op = fc.record({ branch: fc.boolean(), thread: fc.nat(), at: fc.nat() });

function sorted<T>(rows: readonly T[]): T[] {
  return [...rows].map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r) as T);
}

it('gives the same newest turns and per-thread counts as sorting the whole family', { timeout: 240_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(op, { minLength: 3, maxLength: 10 }),
      fc.integer({ min: 1, max: 7 }),
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 4 }),
      async (ops, clockSpread, caps) => {
        const actor = await h.newUser();
        const root = await h.newConversation(actor, 'random family');
        const threads: { id: string; turns: number; from: number }[] = [{ id: root, turns: 0, from: -1 }];
        for (const o of ops) {
          const thread = threads[o.thread % threads.length]!;
          // a branch forks at a turn its thread owns (or at 0 from the root)
          if (o.branch && thread.turns > thread.from) {
            const k = thread.from + 1 + (o.at % (thread.turns - thread.from));
            const branch = await createBranch(h.deps, actor, { threadId: thread.id, from_turn: k });
            threads.push({ id: branch.thread_id, turns: k, from: k });
          } else {
            await h.turn(actor, thread.id, `turn ${thread.turns + 1}`);
            thread.turns += 1;
          }
        }
        // Clocks that tie to the millisecond and run backwards against turn order.
        await h.deps.db.execute(sql`
          update workspace_snapshots set captured_at = timestamptz '2026-01-01 00:00:00+00'
            + ((id * 7919) % ${clockSpread}) * interval '1 millisecond' + (id % 3) * interval '10 microseconds'
          where family_root_thread_id = ${root}`);
        const { threads: rows } = await loadFamilyThreads(h.deps.db, root);
        for (const requested of threads.map((t) => t.id)) {
          const scope = familyGraphScope({ requestedThreadId: requested, threads: rows, includeArchived: false });
          for (const cap of caps) {
            const [indexed, reference] = await Promise.all([
              loadNewestFamilyTurns(h.deps.db, scope, cap),
              loadNewestFamilyTurnsBySorting(h.deps.db, scope, cap),
            ]);
            expect(sorted(indexed.turns)).toEqual(sorted(reference.turns));
            expect(new Map([...indexed.ownedTurnCounts].sort())).toEqual(new Map([...reference.ownedTurnCounts].sort()));
          }
        }
      },
    ),
    { numRuns: 8 },
  );
});
