import { describe, expect, it } from 'vitest';
import { inspectConversationBranchesWithinLimits } from '../inspect';
import { parseTranscriptJsonlWithinLimits } from '../readers/transcript';
import {
  deeplyNestedLine,
  fanOutSessionTranscript,
  manyLeavesTranscript,
  openBraceLines,
  sharedUuidTranscript,
} from './worst-case';

const readAndInspect = (text: string) => {
  const read = parseTranscriptJsonlWithinLimits(text);
  if (!read.ok) return read;
  return inspectConversationBranchesWithinLimits(read.value.records);
};

// Large inputs take seconds on a loaded machine; a hang still fails.
describe('worst-case transcripts within the upload limits', { timeout: 120_000 }, () => {
  it('reads 10,000 copies of one uuid as one leaf with one conflict listing every parent', () => {
    const result = readAndInspect(sharedUuidTranscript(10_000));
    expect(result.ok && result.value.branches.map((b) => b.leafUuid)).toEqual(['same-uuid']);
    const conflict = result.ok
      ? result.value.diagnostics.find((d) => d.kind === 'conflicting-parent')
      : undefined;
    expect(conflict?.kind === 'conflicting-parent' && conflict.parentUuids.length).toBe(10_000);
  });

  it('counts 100,000 lines of `{` as diagnostics and lists the first 1,000', () => {
    const read = parseTranscriptJsonlWithinLimits(openBraceLines(100_000), { format: 'claude-code' });
    expect(read.ok && [read.value.diagnosticCount, read.value.diagnostics.length]).toEqual([100_000, 1_000]);
  });

  it('refuses nesting 4,100 deep without a stack overflow', () => {
    expect(parseTranscriptJsonlWithinLimits(deeplyNestedLine(4_100))).toMatchObject({
      ok: false,
      error: { kind: 'nesting-too-deep', line: 1 },
    });
  });

  it('refuses 5,000 leaves', () => {
    expect(readAndInspect(manyLeavesTranscript(5_000))).toMatchObject({
      ok: false,
      error: { kind: 'too-many-leaves', leafCount: 5_000 },
    });
  });

  it('reads a long parallel-call session as a single leaf', () => {
    const text = fanOutSessionTranscript(200_000);
    const result = readAndInspect(text);
    expect(result.ok && result.value.branches.length).toBe(1);
  });
});
