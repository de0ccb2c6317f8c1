import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { transcriptArbitrary } from './arbitrary-transcript';

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
  });
});
