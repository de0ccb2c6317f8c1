import { describe, expect, it } from 'vitest';
import { ccAssistant, ccSystem, ccUser, jsonl, text } from '../readers/fixtures/claude-code-lines';
import type { InspectionReport } from './report';
import { buildInspectionReport } from './report';
import { formatReportJson, formatReportTable } from './format-report';

const report: InspectionReport = {
  format: 'qwen-code',
  recordCount: 7,
  sidechainRecordCount: 2,
  branches: [
    {
      leafUuid: 'leaf-one',
      branchPointUuid: null,
      classification: 'rewind-sibling',
      containsRewindUuids: [],
      siblingRewindUuids: ['r1', 'r2'],
      firstUserTextAfterBranchPoint: 'Plan the trip',
      lastUserText: 'Book the train',
      recordCounts: { user: 2, assistant: 10, toolResult: 3, system: 0 },
      startedAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T01:00:00Z',
    },
    {
      leafUuid: 'l2',
      branchPointUuid: 'fork',
      classification: 'rewind-descendant',
      containsRewindUuids: ['r1'],
      siblingRewindUuids: [],
      lastAssistantText: 'Done.',
      recordCounts: { user: 1, assistant: 1, toolResult: 0, system: 1 },
      startedAt: '',
      updatedAt: '2025-01-02T00:00:00Z',
    },
  ],
  diagnostics: [
    { kind: 'missing-parent', childUuid: 'c', missingParentUuid: 'p' },
    { kind: 'parent-cycle', uuids: ['x', 'y'] },
    { kind: 'conflicting-parent', uuid: 'd', parentUuids: ['a', null] },
  ],
  readerDiagnostics: [
    { kind: 'glued-objects', line: 4, count: 2 },
    { kind: 'malformed-line', line: 9, message: 'not valid JSON: unterminated string' },
  ],
  compactions: [
    { line: 3, uuid: 'c1', logicalParentUuid: 'a1', joined: true, trigger: 'auto', preTokens: 150_000 },
    { line: 12, uuid: 'c2', logicalParentUuid: 'old', joined: false },
  ],
};

describe('formatReportTable', () => {
  it('prints a header line, one row per leaf with its texts, the compactions, then every diagnostic', () => {
    expect(formatReportTable(report, 'session.jsonl')).toBe(
      [
        'session.jsonl · qwen-code · 7 records (+2 sidechain) · 2 leaves · 5 diagnostics',
        '',
        '#  LEAF      CLASS              BRANCH POINT  USER  ASST  TOOL  SYS  STARTED               UPDATED',
        '1  leaf-one  rewind-sibling     -                2    10     3    0  2025-01-01T00:00:00Z  2025-01-01T01:00:00Z',
        '   first after branch point  Plan the trip',
        '   last user                 Book the train',
        '   rewinds beside            r1, r2',
        '2  l2        rewind-descendant  fork             1     1     0    1  -                     2025-01-02T00:00:00Z',
        '   last assistant            Done.',
        '   rewinds on chain          r1',
        '',
        'Compactions',
        '  line 3: c1 (auto), continues a1',
        '  line 12: c2, continues old, which is not in the file',
        '',
        'Diagnostics',
        '  line 4: glued-objects: 2 JSON objects on one line, all read',
        '  line 9: malformed-line: not valid JSON: unterminated string',
        '  missing-parent: c names parent p, which is not in the file',
        '  parent-cycle: x → y → x',
        '  conflicting-parent: d is recorded with parents a, null; the first wins',
        '',
      ].join('\n'),
    );
  });

  it('prints only the header line for an empty transcript', () => {
    const empty = {
      ...report,
      recordCount: 1,
      sidechainRecordCount: 0,
      branches: [],
      diagnostics: [],
      readerDiagnostics: [],
      compactions: [],
    };
    expect(formatReportTable(empty, 'empty.jsonl')).toBe(
      'empty.jsonl · qwen-code · 1 record · 0 leaves · 0 diagnostics\n',
    );
  });
});

describe('formatReportJson', () => {
  it('prints the exact report as JSON', () => {
    const printed = formatReportJson(report);
    expect(printed.endsWith('}\n')).toBe(true);
    expect(JSON.parse(printed)).toEqual(report);
  });
});

describe('buildInspectionReport', () => {
  it('detects the format, reads, and inspects', () => {
    const transcript = jsonl(
      ccUser('u1', null, 'hi'),
      ccAssistant('a1', 'u1', 'm1', text('hello')),
      ccSystem('b', null, 'compact_boundary', { logicalParentUuid: 'a1' }),
      ccUser('s1', null, 'side', { isSidechain: true }),
      'not json',
    );
    expect(buildInspectionReport(transcript)).toMatchObject({
      format: 'claude-code',
      recordCount: 3,
      sidechainRecordCount: 1,
      branches: [{ leafUuid: 'b', lastUserText: 'hi', lastAssistantText: 'hello' }],
      diagnostics: [],
      readerDiagnostics: [{ kind: 'malformed-line', line: 5 }],
      compactions: [{ line: 3, uuid: 'b', logicalParentUuid: 'a1', joined: true }],
    });
  });
});
