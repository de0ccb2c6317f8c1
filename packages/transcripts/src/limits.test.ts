import { describe, expect, it } from 'vitest';
import { inspectConversationBranchesWithinLimits } from './inspect';
import { ccAssistant, ccUser, jsonl, text } from './readers/fixtures/claude-code-lines';
import { parseTranscriptJsonl, parseTranscriptJsonlWithinLimits } from './readers/transcript';
import { user } from './testing/records';

const deep = (depth: number) => `{"uuid":"d","type":"user","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('reading within limits', () => {
  it('refuses JSON nested deeper than the limit before parsing it, and names the line', () => {
    const session = jsonl(ccUser('u1', null, 'hi'), deep(5_000));
    expect(parseTranscriptJsonlWithinLimits(session)).toEqual({
      ok: false,
      error: {
        kind: 'nesting-too-deep',
        limit: 256,
        line: 2,
        message: 'Line 2 nests JSON deeper than 256 levels',
      },
    });
    expect(parseTranscriptJsonlWithinLimits(jsonl(ccUser('u1', null, 'hi'), deep(200)))).toMatchObject({
      ok: true,
    });
  });

  it('reports a too-deep line as malformed when read without limits', () => {
    const read = parseTranscriptJsonl(jsonl(ccUser('u1', null, 'hi'), deep(100_000)));
    expect(read.diagnostics).toEqual([
      { kind: 'malformed-line', line: 2, message: 'nested deeper than 256 levels' },
    ]);
    expect(read.records.map((r) => r.uuid)).toEqual(['u1']);
  });

  it('refuses more records than the limit, stopping at the first one over', () => {
    const session = jsonl(
      ccUser('u1', null, 'one'),
      ccAssistant('a1', 'u1', 'm1', text('two')),
      ccUser('u2', 'a1', 'three'),
    );
    const refused = parseTranscriptJsonlWithinLimits(session, { limits: { maxRecords: 2 } });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'too-many-records', limit: 2, line: 3 } });
    expect(parseTranscriptJsonlWithinLimits(session, { limits: { maxRecords: 3 } })).toMatchObject({
      ok: true,
    });
  });

  it('counts every diagnostic and lists only the first ones', () => {
    const damaged = [JSON.stringify(ccUser('u1', null, 'hi')), ...Array.from({ length: 30 }, () => '{')].join(
      '\n',
    );
    const read = parseTranscriptJsonlWithinLimits(damaged, {
      format: 'claude-code',
      limits: { maxListedDiagnostics: 5 },
    });
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.diagnosticCount).toBe(30);
    expect(read.value.diagnostics.map((d) => d.line)).toEqual([2, 3, 4, 5, 6]);
  });
});

describe('inspecting within limits', () => {
  const fan = (leaves: number) => [
    user('root', null, 'start'),
    ...Array.from({ length: leaves }, (_, i) => user(`l${i}`, 'root', `leaf ${i}`)),
  ];

  it('refuses more leaves than the limit with a typed error', () => {
    expect(inspectConversationBranchesWithinLimits(fan(1_001))).toEqual({
      ok: false,
      error: {
        kind: 'too-many-leaves',
        limit: 1000,
        leafCount: 1001,
        message: 'The transcript has 1,001 conversation leaves; at most 1,000 can be imported at once',
      },
    });
    const accepted = inspectConversationBranchesWithinLimits(fan(1_000));
    expect(accepted.ok && accepted.value.branches.length).toBe(1_000);
  });

  it('counts every inspector diagnostic and lists the first ones', () => {
    const orphans = Array.from({ length: 12 }, (_, i) => user(`o${i}`, `ghost${i}`, 'orphan'));
    const result = inspectConversationBranchesWithinLimits(orphans, { maxListedDiagnostics: 3 });
    expect(result.ok && [result.value.diagnosticCount, result.value.diagnostics.length]).toEqual([12, 3]);
  });
});
