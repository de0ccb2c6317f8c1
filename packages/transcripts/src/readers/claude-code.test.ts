import { describe, expect, it } from 'vitest';
import { buildOrderedUuidChain } from '../chain';
import { inspectConversationBranches } from '../inspect';
import { parseClaudeCodeJsonl } from './claude-code';
import {
  ccAssistant,
  ccProgress,
  ccToolResult,
  ccUser,
  jsonl,
  text,
  toolUse,
} from './fixtures/claude-code-lines';
import {
  compaction,
  damagedLines,
  inlineSidechain,
  noRoot,
  parallelToolCalls,
  parallelToolCallsContinuingMessage,
  parallelToolCallsOutOfOrder,
  progressTail,
} from './fixtures/claude-code-sessions';

const parents = (text: string) =>
  Object.fromEntries(parseClaudeCodeJsonl(text).records.map((r) => [r.uuid, r.parentUuid]));
const inspect = (text: string) => inspectConversationBranches(parseClaudeCodeJsonl(text).records);

describe('parseClaudeCodeJsonl', () => {
  it('maps content blocks onto parts: text, thinking as thought, tool_use and tool_result as function parts', () => {
    const { records } = parseClaudeCodeJsonl(parallelToolCalls);
    const byUuid = new Map(records.map((r) => [r.uuid, r]));
    expect(byUuid.get('u1')).toMatchObject({
      type: 'user',
      parentUuid: null,
      sessionId: 'cc-session',
      message: { role: 'user', parts: [{ text: 'Create two files in parallel' }] },
    });
    expect(byUuid.get('a1')?.message?.parts).toEqual([{ text: 'Two independent writes.', thought: true }]);
    expect(byUuid.get('a2')?.message?.parts).toEqual([
      { functionCall: { id: 'toolu_a', name: 'Write', args: { file_path: 'a.md', content: 'SECRET A' } } },
    ]);
    expect(byUuid.get('r_a')).toMatchObject({
      type: 'tool_result',
      message: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'toolu_a',
              name: 'Write',
              response: { output: 'wrote a.md', isError: false },
            },
          },
        ],
      },
    });
  });

  it('joins the fan-out of parallel tool calls into one step instead of a branch', () => {
    expect(parents(parallelToolCalls)).toEqual({
      u1: null,
      a1: 'u1',
      a2: 'a1',
      a3: 'a2',
      r_a: 'a3',
      r_b: 'r_a',
      a4: 'r_b',
    });
    const { records } = parseClaudeCodeJsonl(parallelToolCalls);
    expect(records.find((r) => r.uuid === 'r_a')?.claudeCode).toMatchObject({
      originalParentUuid: 'a2',
      line: 5,
    });
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.recordCounts, b.lastAssistantText])).toEqual([
      ['a4', { user: 1, assistant: 4, toolResult: 2, system: 0 }, 'Created both files.'],
    ]);
  });

  it('keeps the result that leads on last when results arrive out of order among progress records', () => {
    const parentOf = parents(parallelToolCallsOutOfOrder);
    expect([parentOf.r2, parentOf.r3, parentOf.r1, parentOf.p1b, parentOf.a4]).toEqual([
      'a3',
      'r2',
      'r3',
      'r1',
      'p1b',
    ]);
    const { records } = parseClaudeCodeJsonl(parallelToolCallsOutOfOrder);
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => b.leafUuid)).toEqual(['a4']);
    expect(buildOrderedUuidChain(records, { leafUuid: 'a4' }).uuids).toEqual([
      'u1',
      'a1',
      'a2',
      'a3',
      'r2',
      'r3',
      'r1',
      'p1b',
      'a4',
    ]);
  });

  it('joins the fan-out when the message goes on after its results under the same message id', () => {
    const { records } = parseClaudeCodeJsonl(parallelToolCallsContinuingMessage);
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.recordCounts, b.lastAssistantText])).toEqual([
      ['a6', { user: 1, assistant: 6, toolResult: 4, system: 2 }, 'All three packages are fine.'],
    ]);
    expect(buildOrderedUuidChain(records, { leafUuid: 'a6' }).uuids).toEqual([
      'u1',
      'a1',
      'a2',
      'a3',
      'a4',
      'r_a',
      'p_b',
      'r_b',
      'p_c',
      'r_c',
      'a5',
      'r_d',
      'a6',
    ]);
  });

  it('joins results that interleave with each other through progress records', () => {
    const interleaved = jsonl(
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'u1', 'msg_1', toolUse('t1', 'Bash', {})),
      ccAssistant('a2', 'a1', 'msg_1', toolUse('t2', 'Bash', {})),
      ccAssistant('a3', 'a2', 'msg_1', toolUse('t3', 'Bash', {})),
      ccProgress('p1', 'a1', 't1'),
      ccProgress('p3', 'a3', 't3'),
      ccToolResult('r3', 'p3', 't3', 'three'),
      ccProgress('p2', 'r3', 't2'),
      ccToolResult('r1', 'p1', 't1', 'one'),
      ccToolResult('r2', 'a2', 't2', 'two'),
      ccProgress('tail', 'r2', 't2'),
      ccAssistant('a4', 'r1', 'msg_2', text('done')),
    );
    const { records } = parseClaudeCodeJsonl(interleaved);
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.recordCounts.toolResult])).toEqual([['a4', 3]]);
  });

  it('keeps a second reply and a re-asked prompt after a continuing fan-out as forks', () => {
    const forked = jsonl(
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'u1', 'msg_1', toolUse('t1', 'Read', {})),
      ccAssistant('a2', 'a1', 'msg_1', toolUse('t2', 'Read', {})),
      ccToolResult('r1', 'a1', 't1', 'one'),
      ccToolResult('r2', 'a2', 't2', 'two'),
      ccAssistant('a3', 'r2', 'msg_1', toolUse('t3', 'Read', {})),
      ccToolResult('r3', 'a3', 't3', 'three'),
      ccAssistant('x', 'r3', 'msg_2', text('first reply')),
      ccAssistant('y', 'r3', 'msg_3', text('second reply')),
      ccUser('z', null, 'go, asked again'),
    );
    const { records } = parseClaudeCodeJsonl(forked);
    expect(inspectConversationBranches(records).branches.map((b) => [b.leafUuid, b.branchPointUuid])).toEqual(
      [
        ['x', 'r3'],
        ['y', 'r3'],
        ['z', null],
      ],
    );
  });

  it('does not make a join that would close a parent cycle', () => {
    // r1 answers a1's call but is written as a1's ancestor: joining it below the round would
    // make r1 → r2 → a2 → a1 → r1.
    const corrupt = jsonl(
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'r1', 'msg_1', toolUse('t1', 'Read', {})),
      ccAssistant('a2', 'a1', 'msg_1', toolUse('t2', 'Read', {})),
      ccToolResult('r1', 'u1', 't1', 'one'),
      ccToolResult('r2', 'a1', 't2', 'two'),
    );
    const { records } = parseClaudeCodeJsonl(corrupt);
    expect(records.map((r) => [r.uuid, r.parentUuid])).toEqual([
      ['u1', null],
      ['a1', 'r1'],
      ['a2', 'a1'],
      ['r1', 'u1'],
      ['r2', 'a1'],
    ]);
    expect(inspectConversationBranches(records).diagnostics).toEqual([]);
  });

  it('leaves already chained results and single tool calls as written', () => {
    const chained = jsonl(
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'u1', 'msg_1', toolUse('t1', 'Read', {})),
      ccAssistant('a2', 'a1', 'msg_1', toolUse('t2', 'Read', {})),
      ccToolResult('r1', 'a2', 't1', 'one'),
      ccToolResult('r2', 'r1', 't2', 'two'),
      ccAssistant('a3', 'u1', 'msg_3', toolUse('t3', 'Read', {})),
      ccToolResult('r3', 'u1', 't3', 'three'),
    );
    const { records } = parseClaudeCodeJsonl(chained);
    expect(records.map((r) => r.parentUuid)).toEqual([null, 'u1', 'a1', 'a2', 'r1', 'u1', 'u1']);
    expect(
      records.every(
        (r) => (r.claudeCode as { originalParentUuid?: unknown }).originalParentUuid === undefined,
      ),
    ).toBe(true);
  });

  it('moves duplicated copies of a re-chained result with it, but keeps a conflicting copy visible', () => {
    const duplicated = jsonl(
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'u1', 'msg_1', toolUse('t1', 'Read', {})),
      ccAssistant('a2', 'a1', 'msg_1', toolUse('t2', 'Read', {})),
      ccToolResult('r1', 'a1', 't1', 'one'),
      ccToolResult('r2', 'a2', 't2', 'two'),
      ccToolResult('r1', 'a1', 't1', 'one, written again'),
      ccToolResult('r1', 'u1', 't1', 'one, elsewhere'),
    );
    const { records } = parseClaudeCodeJsonl(duplicated);
    expect(records.map((r) => [r.uuid, r.parentUuid])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
      ['a2', 'a1'],
      ['r1', 'a2'],
      ['r2', 'r1'],
      ['r1', 'a2'],
      ['r1', 'u1'],
    ]);
    expect(inspectConversationBranches(records).diagnostics).toEqual([
      { kind: 'conflicting-parent', uuid: 'r1', parentUuids: ['a2', 'u1'] },
    ]);
  });

  it('keeps a genuine fork after a tool step a fork', () => {
    const forked = jsonl(
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'u1', 'msg_1', toolUse('t1', 'Read', {})),
      ccAssistant('a2', 'a1', 'msg_1', toolUse('t2', 'Read', {})),
      ccToolResult('r1', 'a1', 't1', 'one'),
      ccToolResult('r2', 'a2', 't2', 'two'),
      ccAssistant('x', 'r2', 'msg_2', text('first continuation')),
      ccUser('y', 'r2', 'edited prompt after the step'),
      ccAssistant('z', 'y', 'msg_3', text('answer to the edited prompt')),
    );
    expect(inspect(forked).branches.map((b) => [b.leafUuid, b.branchPointUuid])).toEqual([
      ['x', 'r2'],
      ['z', 'r2'],
    ]);
  });

  it('treats progress, hook, stop and attachment records as a neutral tail', () => {
    const { records } = parseClaudeCodeJsonl(progressTail);
    expect(records.map((r) => [r.uuid, r.type, r.subtype])).toEqual([
      ['u1', 'user', undefined],
      ['a1', 'assistant', undefined],
      ['p1', 'system', 'session_artifact_event'],
      ['s1', 'system', 'session_artifact_event'],
      ['s2', 'system', 'session_artifact_event'],
      ['att', 'system', 'session_artifact_event'],
    ]);
    expect(records.map((r) => (r.claudeCode as { type: string }).type)).toEqual([
      'user',
      'assistant',
      'progress',
      'system',
      'system',
      'attachment',
    ]);
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.updatedAt])).toEqual([['a1', records[5]!.timestamp]]);
  });

  it('joins a compaction root to its logical parent and lists it as a compaction, not a diagnostic', () => {
    const { records, diagnostics, compactions } = parseClaudeCodeJsonl(compaction);
    expect(diagnostics).toEqual([]);
    expect(compactions).toEqual([
      {
        line: 3,
        uuid: 'boundary',
        logicalParentUuid: 'a1',
        joined: true,
        trigger: 'auto',
        preTokens: 155000,
      },
    ]);
    const boundary = records.find((r) => r.uuid === 'boundary');
    expect(boundary).toMatchObject({ parentUuid: 'a1', type: 'system', subtype: 'compact_boundary' });
    expect(records.find((r) => r.uuid === 'summary')).toMatchObject({
      type: 'system',
      subtype: 'compact_summary',
    });
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.branchPointUuid, b.lastUserText, b.recordCounts])).toEqual([
      ['a2', null, 'Continue with step two', { user: 2, assistant: 2, toolResult: 0, system: 2 }],
    ]);
  });

  it('reads a file without a root: unjoinable compaction, and a missing parent joined to the record before', () => {
    const { records, diagnostics, compactions, joinedOrphans } = parseClaudeCodeJsonl(noRoot);
    expect(diagnostics).toEqual([]);
    expect(compactions).toEqual([
      { line: 1, uuid: 'boundary', logicalParentUuid: 'from-an-older-file', joined: false },
    ]);
    // A record whose parent was never written follows what was written before it; listed.
    expect(joinedOrphans).toEqual([{ line: 4, uuid: 'u2', missingParentUuid: 'elsewhere', joinedTo: 'a1' }]);
    const result = inspectConversationBranches(records);
    // The compaction continues a record of another file, with nothing before it: the inspector names it.
    expect(result.diagnostics).toEqual([
      { kind: 'missing-parent', childUuid: 'boundary', missingParentUuid: 'from-an-older-file' },
    ]);
    expect(result.branches.map((b) => [b.leafUuid, b.startedAt])).toEqual([['u2', records[0]!.timestamp]]);
  });

  it('keeps inline sidechain records apart from the main conversation', () => {
    const { records, sidechainRecords } = parseClaudeCodeJsonl(inlineSidechain);
    expect(records.map((r) => r.uuid)).toEqual(['u1', 'a1', 'r1', 'a2']);
    expect(sidechainRecords.map((r) => r.uuid)).toEqual(['s1', 's2']);
    expect(inspectConversationBranches(records).branches.map((b) => b.leafUuid)).toEqual(['a2']);
    expect(inspectConversationBranches(sidechainRecords).branches.map((b) => b.leafUuid)).toEqual(['s2']);
  });

  it('turns damaged lines into line-numbered diagnostics and keeps every readable record', () => {
    const { records, diagnostics, skippedRecordTypes } = parseClaudeCodeJsonl(damagedLines);
    expect(records.map((r) => r.uuid)).toEqual(['u1', 'a1', 'u2', 'a2', 'x1']);
    expect(diagnostics.map((d) => ({ ...d, ...('message' in d && { message: 'json error' }) }))).toEqual([
      { kind: 'glued-objects', line: 2, count: 2 },
      { kind: 'malformed-line', line: 3, message: 'json error' },
      { kind: 'invalid-record', line: 5, reason: 'not a JSON object' },
      { kind: 'invalid-record', line: 11, reason: 'uuid is not a non-empty string' },
    ]);
    // Well-formed lines of types this reader does not know are skipped and counted, not damage.
    expect(skippedRecordTypes).toEqual([
      { recordType: 'future-metadata', count: 1 },
      { recordType: 'future-chain-record', count: 1 },
    ]);
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.updatedAt])).toEqual([['a2', records[4]!.timestamp]]);
  });

  it('knows every metadata record current Claude Code writes: none is skipped or unreadable', () => {
    const metadata = [
      { type: 'permission-mode', permissionMode: 'default', sessionId: 'cc-session' },
      { type: 'mode', mode: 'normal', sessionId: 'cc-session' },
      { type: 'ai-title', aiTitle: 'Fix the parser', sessionId: 'cc-session' },
      { type: 'custom-title', customTitle: 'Parser work', sessionId: 'cc-session' },
      { type: 'last-prompt', lastPrompt: 'thanks', sessionId: 'cc-session' },
      { type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false },
      { type: 'queue-operation', operation: 'enqueue', timestamp: '2025-06-01T00:00:00Z', content: 'next' },
      { type: 'agent-name', agentName: 'helper' },
      { type: 'summary', summary: 'Parser work', leafUuid: 'a1' },
    ];
    const { records, diagnostics, skippedRecordTypes } = parseClaudeCodeJsonl(
      jsonl(
        ...metadata,
        ccUser('u1', null, 'Fix the parser'),
        ccAssistant('a1', 'u1', 'msg_1', text('Fixed.')),
        { ...ccProgress('att', 'a1', 'toolu_1'), type: 'attachment', attachment: { type: 'todo' } },
      ),
    );
    expect(diagnostics).toEqual([]);
    expect(skippedRecordTypes).toBeUndefined();
    expect(inspectConversationBranches(records).branches.map((b) => b.leafUuid)).toEqual(['a1']);
  });

  it('treats meta user records as system records, not prompts', () => {
    const session = jsonl(
      ccUser('u1', null, 'real prompt'),
      ccUser('m1', 'u1', 'Caveat: the messages below were generated by local commands', { isMeta: true }),
      ccUser('u2', 'm1', [
        { type: 'text', text: 'look at this' },
        { type: 'image', source: { type: 'base64', data: 'AAAA' } },
      ]),
    );
    const { records } = parseClaudeCodeJsonl(session);
    expect(records.map((r) => [r.type, r.subtype])).toEqual([
      ['user', undefined],
      ['system', 'meta'],
      ['user', undefined],
    ]);
    expect(records[2]!.message?.parts).toEqual([
      { text: 'look at this' },
      { claudeCodeBlock: { type: 'image', source: { type: 'base64', data: 'AAAA' } } },
    ]);
    expect(inspectConversationBranches(records).branches[0]).toMatchObject({
      lastUserText: 'look at this',
      firstUserTextAfterBranchPoint: 'real prompt',
    });
  });

  it('never throws on empty or hostile input', () => {
    expect(parseClaudeCodeJsonl('')).toEqual({
      records: [],
      sidechainRecords: [],
      diagnostics: [],
      diagnosticCount: 0,
      compactions: [],
    });
    expect(parseClaudeCodeJsonl('\n\n  \n').diagnostics).toEqual([]);
    expect(parseClaudeCodeJsonl('}{').diagnostics.map((d) => [d.kind, d.line])).toEqual([
      ['malformed-line', 1],
    ]);
    expect(parseClaudeCodeJsonl('{"type":"user","uuid":"u","parentUuid":5}').diagnostics).toEqual([
      { kind: 'invalid-record', line: 1, reason: 'parentUuid is neither a string nor null' },
    ]);
  });
});
