import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOrderedUuidChain } from './chain';
import { inspectConversationBranches } from './inspect';
import { transcriptArbitrary } from './testing/arbitrary-transcript';
import { referenceInspect } from './testing/reference-inspector';
import type { ChatRecord } from './types';

const RUNS = 5_000;
/** Thousands of runs take seconds on a loaded machine; a hang still fails. */
const TIMEOUT_MS = 120_000;

describe('inspectConversationBranches over generated transcripts', () => {
  it(
    'returns a deterministic antichain of leaves whose rebuilt chains end at the leaf',
    () => {
      fc.assert(
        fc.property(transcriptArbitrary, (records) => {
          const result = inspectConversationBranches(records);
          expect(inspectConversationBranches(structuredClone(records))).toEqual(result);

          const leaves = result.branches.map((branch) => branch.leafUuid);
          expect(new Set(leaves).size).toBe(leaves.length);
          // Collected, then asserted once: an expect call per pair would dominate the run time.
          const violations: string[] = [];
          for (const leafUuid of leaves) {
            const chain = buildOrderedUuidChain(records, { leafUuid }).uuids;
            if (chain.at(-1) !== leafUuid)
              violations.push(`chain of ${leafUuid} ends at ${String(chain.at(-1))}`);
            const onChain = new Set(chain);
            for (const other of leaves) {
              if (other !== leafUuid && onChain.has(other))
                violations.push(`${other} is an ancestor of ${leafUuid}`);
            }
          }
          expect(violations).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'agrees exactly with a literal reading of every rule',
    () => {
      fc.assert(
        fc.property(transcriptArbitrary, (records) => {
          expect(inspectConversationBranches(records)).toEqual(referenceInspect(records));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});

describe('bounded walks', () => {
  it(
    'handles a 50,000-record chain and a 50,000-member cycle without recursion',
    () => {
      const size = 50_000;
      const chain: ChatRecord[] = [];
      const cycle: ChatRecord[] = [];
      for (let i = 0; i < size; i++) {
        const base = { sessionId: 's', timestamp: `t${i}`, type: 'user' as const };
        chain.push({ ...base, uuid: `c${i}`, parentUuid: i === 0 ? null : `c${i - 1}` });
        cycle.push({ ...base, uuid: `y${i}`, parentUuid: `y${(i + 1) % size}` });
      }
      cycle.push({ sessionId: 's', timestamp: 'tail', type: 'user', uuid: 'tail', parentUuid: 'y5' });

      const linear = inspectConversationBranches(chain);
      expect(linear.branches.map((b) => [b.leafUuid, b.recordCounts.user])).toEqual([[`c${size - 1}`, size]]);
      const cyclic = inspectConversationBranches(cycle);
      expect(cyclic.diagnostics.map((d) => (d.kind === 'parent-cycle' ? d.uuids.length : 0))).toEqual([size]);
      expect(cyclic.branches.map((b) => [b.leafUuid, b.startedAt, b.recordCounts.user])).toEqual([
        ['tail', 't0', size - 3],
      ]);
      expect(buildOrderedUuidChain(cycle).uuids.length).toBe(size - 3);
    },
    TIMEOUT_MS,
  );
});
