import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeThreadSuffixes, stepLabel } from './labels';
import { applyFamilyOp, familyOpsArbitrary, FamilyBuilder, shuffled, type FamilyRows } from './testing';

function labelMap({ threads, turns }: FamilyRows): Map<string, string> {
  const suffixes = computeThreadSuffixes({ threads, nodes: turns });
  return new Map(
    turns.map((turn) => [
      `${turn.thread_id}:${turn.turn_index}`,
      stepLabel(turn.turn_index, suffixes[turn.thread_id] ?? '?'),
    ]),
  );
}

/** Thread ids of `threadId` and every descendant. */
function subtree(threads: FamilyRows['threads'], threadId: string): Set<string> {
  const ids = new Set([threadId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const thread of threads) {
      if (
        thread.parent_thread_id !== null &&
        ids.has(thread.parent_thread_id) &&
        !ids.has(thread.thread_id)
      ) {
        ids.add(thread.thread_id);
        grew = true;
      }
    }
  }
  return ids;
}

/** Replays the ops one by one, handing each step's before/after rows to `check`. */
function replay(
  ops: Parameters<typeof applyFamilyOp>[1][],
  check: (step: ReturnType<typeof applyFamilyOp> & object, before: FamilyRows, after: FamilyRows) => void,
): void {
  const builder = new FamilyBuilder();
  builder.root();
  let before = builder.rows();
  for (const op of ops) {
    const applied = applyFamilyOp(builder, op);
    if (applied === null) continue;
    const after = builder.rows();
    check(applied, before, after);
    before = after;
  }
}

describe('computeThreadSuffixes properties (random families of turns and branches)', () => {
  it('labels every node of the family uniquely', () => {
    fc.assert(
      fc.property(familyOpsArbitrary({ maxOps: 60 }), (ops) => {
        replay(ops, (_step, _before, after) => {
          const labels = [...labelMap(after).values()];
          expect(new Set(labels).size).toBe(labels.length);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('never changes an existing label when a branch is added', () => {
    fc.assert(
      fc.property(familyOpsArbitrary(), (ops) => {
        replay(ops, (step, before, after) => {
          if (step.kind !== 'branch') return;
          expect(labelMap(after)).toEqual(labelMap(before));
        });
      }),
    );
  });

  it('changes labels on a new turn exactly in the flipped tip continuation and its descendants', () => {
    fc.assert(
      fc.property(familyOpsArbitrary(), (ops) => {
        replay(ops, (step, before, after) => {
          if (step.kind !== 'turn') return;
          // The flip candidate: the first thread opened from the previous tip of this thread.
          const flipped = after.threads.find(
            (thread) =>
              thread.parent_thread_id === step.threadId && thread.branch_point_turn === step.turnIndex - 1,
          );
          const expectedChanged =
            flipped === undefined ? new Set<string>() : subtree(after.threads, flipped.thread_id);
          const old = labelMap(before);
          for (const [id, label] of labelMap(after)) {
            const previous = old.get(id);
            if (previous === undefined) continue;
            const threadId = id.slice(0, id.lastIndexOf(':'));
            if (expectedChanged.has(threadId)) expect(label, id).not.toBe(previous);
            else expect(label, id).toBe(previous);
          }
        });
      }),
    );
  });

  it('is deterministic whatever the order of the rows', () => {
    fc.assert(
      fc.property(familyOpsArbitrary({ maxOps: 60 }), fc.integer(), (ops, seed) => {
        const builder = new FamilyBuilder();
        builder.root();
        for (const op of ops) applyFamilyOp(builder, op);
        const { threads, turns } = builder.rows();
        const expected = computeThreadSuffixes({ threads, nodes: turns });
        expect(
          computeThreadSuffixes({ threads: shuffled(threads, seed), nodes: shuffled(turns, seed + 1) }),
        ).toEqual(expected);
      }),
    );
  });
});
