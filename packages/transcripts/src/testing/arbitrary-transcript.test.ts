import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import type { ChatRecord } from '../types';
import { transcriptArbitrary } from './arbitrary-transcript';

const NEUTRAL = new Set(['custom_title', 'session_artifact_event', 'session_artifact_snapshot']);

function neutralTailOnCycle(records: ChatRecord[]): boolean {
  const onCycle = new Set(
    inspectConversationBranches(records).diagnostics.flatMap((d) =>
      d.kind === 'parent-cycle' ? d.uuids : [],
    ),
  );
  const first = new Map<string, ChatRecord>();
  for (const record of records) if (!first.has(record.uuid)) first.set(record.uuid, record);
  return [...first.values()].some(
    (r) =>
      r.type === 'system' &&
      NEUTRAL.has(r.subtype ?? '') &&
      r.parentUuid !== null &&
      onCycle.has(r.parentUuid),
  );
}

describe('transcriptArbitrary', () => {
  it('generates every shape the property tests claim to cover', () => {
    const samples = fc.sample(transcriptArbitrary, { numRuns: 2_000, seed: 42 });
    const share = (test: (records: (typeof samples)[number]) => boolean) =>
      samples.filter(test).length / samples.length;
    const diagnosed = (kind: string) => (records: (typeof samples)[number]) =>
      inspectConversationBranches(records).diagnostics.some((d) => d.kind === kind);

    expect(share(diagnosed('parent-cycle'))).toBeGreaterThan(0.05);
    expect(share(diagnosed('missing-parent'))).toBeGreaterThan(0.05);
    expect(share(diagnosed('conflicting-parent'))).toBeGreaterThan(0.05);
    expect(
      share((r) => inspectConversationBranches(r).branches.some((b) => b.branchPointUuid !== null)),
    ).toBeGreaterThan(0.05);
    expect(
      share((r) => inspectConversationBranches(r).branches.some((b) => b.classification === 'mixed-rewind')),
    ).toBeGreaterThan(0.01);
    expect(share((r) => r.some((x) => x.type === 'system' && x.subtype === 'custom_title'))).toBeGreaterThan(
      0.05,
    );
    expect(share((r) => r.length >= 20)).toBeGreaterThan(0.05);
    // The two held-out edge cases: a neutral tail hanging off a cycle member, and a leaf whose
    // uuid is written more than once (ordered by its first copy).
    expect(share(neutralTailOnCycle)).toBeGreaterThan(0.01);
    expect(
      share((r) => {
        const leaves = new Set(inspectConversationBranches(r).branches.map((b) => b.leafUuid));
        return r.filter((x) => leaves.has(x.uuid)).length > leaves.size;
      }),
    ).toBeGreaterThan(0.02);
    // Thousands of samples take seconds on a loaded machine.
  }, 120_000);
});
