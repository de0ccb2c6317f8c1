import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from './inspect';
import { referenceInspect } from './testing/reference-inspector';
import { assistant, record, system, toolResult, user } from './testing/records';
import type { BranchSummary, ChatRecord } from './types';

const leafUuids = (records: ChatRecord[]) =>
  inspectConversationBranches(records).branches.map((b) => b.leafUuid);
const branchOf = (records: ChatRecord[], leafUuid: string): BranchSummary => {
  const branch = inspectConversationBranches(records).branches.find((b) => b.leafUuid === leafUuid);
  if (branch === undefined) throw new Error(`no branch ends at ${leafUuid}`);
  return branch;
};

describe('inspectConversationBranches', () => {
  it('reports nothing for an empty transcript', () => {
    expect(inspectConversationBranches([])).toEqual({ branches: [], diagnostics: [] });
  });

  it('summarises a single linear branch completely', () => {
    const records = [
      user('u1', null, 'Plan the trip'),
      assistant('a1', 'u1', 'Reading your notes'),
      toolResult('t1', 'a1'),
      assistant('a2', 't1', 'Here is a plan'),
    ];
    expect(inspectConversationBranches(records)).toEqual({
      branches: [
        {
          leafUuid: 'a2',
          branchPointUuid: null,
          classification: 'ordinary',
          containsRewindUuids: [],
          siblingRewindUuids: [],
          firstUserTextAfterBranchPoint: 'Plan the trip',
          lastUserText: 'Plan the trip',
          lastAssistantText: 'Here is a plan',
          recordCounts: { user: 1, assistant: 2, toolResult: 1, system: 0 },
          startedAt: 'at:u1',
          updatedAt: 'at:a2',
        },
      ],
      diagnostics: [],
    });
  });

  it('finds every leaf of nested forks with the nearest shared ancestor as branch point', () => {
    const records = [
      user('u1', null, 'root prompt'),
      assistant('a1', 'u1', 'root answer'),
      user('u2', 'a1', 'first fork'),
      assistant('a2', 'u2', 'first answer'),
      user('u3', 'a2', 'nested one'),
      assistant('a3', 'u3', 'nested one answer'),
      user('u4', 'a2', 'nested two'),
      assistant('a4', 'u4', 'nested two answer'),
      user('u5', 'a1', 'second fork'),
      assistant('a5', 'u5', 'second answer'),
    ];
    const { branches } = inspectConversationBranches(records);
    expect(
      branches.map((b) => [b.leafUuid, b.branchPointUuid, b.firstUserTextAfterBranchPoint, b.lastUserText]),
    ).toEqual([
      ['a3', 'a2', 'nested one', 'nested one'],
      ['a4', 'a2', 'nested two', 'nested two'],
      ['a5', 'a1', 'second fork', 'second fork'],
    ]);
    expect(branches.map((b) => b.recordCounts)).toEqual([
      { user: 3, assistant: 3, toolResult: 0, system: 0 },
      { user: 3, assistant: 3, toolResult: 0, system: 0 },
      { user: 2, assistant: 2, toolResult: 0, system: 0 },
    ]);
  });

  describe('neutral tails', () => {
    it('collapses neutral terminal runs into their nearest non-neutral ancestor, once', () => {
      const records = [
        user('u1', null, 'hello'),
        assistant('a1', 'u1', 'hi'),
        system('n1', 'a1', 'custom_title'),
        system('n2', 'a1', 'session_artifact_event'),
        system('n3', 'n2', 'session_artifact_snapshot'),
        system('n4', 'a1', 'custom_title', { timestamp: 'written-last' }),
      ];
      const { branches } = inspectConversationBranches(records);
      expect(branches.map((b) => [b.leafUuid, b.updatedAt, b.recordCounts.system])).toEqual([
        ['a1', 'written-last', 0],
      ]);
    });

    it('drops a collapsed candidate that is an ancestor of another leaf', () => {
      const records = [
        user('u1', null, 'hello'),
        assistant('a1', 'u1', 'hi'),
        system('n1', 'a1', 'custom_title'),
        user('u2', 'a1', 'go on'),
      ];
      expect(leafUuids(records)).toEqual(['u2']);
    });

    it('omits a neutral-only tree and keeps significant records below a neutral root', () => {
      const records = [
        system('n1', null, 'custom_title'),
        system('n2', 'n1', 'session_artifact_event'),
        system('m1', null, 'session_artifact_snapshot'),
        user('u1', 'm1', 'after metadata'),
        system('m2', 'u1', 'custom_title'),
      ];
      const { branches } = inspectConversationBranches(records);
      expect(branches.map((b) => [b.leafUuid, b.startedAt, b.updatedAt])).toEqual([['u1', 'at:m1', 'at:m2']]);
    });

    it('keeps every other system record as a significant terminal', () => {
      const records = [
        user('u1', null, 'hello'),
        system('s1', 'u1', 'rewind'),
        system('s2', 'u1', 'chat_compression'),
        system('s3', 'u1', 'attribution'),
        system('s4', 'u1', 'file_history'),
        record('s5', 'u1', 'system'),
      ];
      expect(leafUuids(records)).toEqual(['s1', 's2', 's3', 's4', 's5']);
      expect(branchOf(records, 's2').recordCounts).toEqual({
        user: 1,
        assistant: 0,
        toolResult: 0,
        system: 1,
      });
    });
  });

  describe('rewind classification', () => {
    const base = [user('u1', null, 'start'), assistant('a1', 'u1', 'ok')];

    it('labels a branch whose chain contains a rewind a rewind descendant', () => {
      const records = [...base, system('r1', 'a1', 'rewind'), user('u2', 'r1', 'again')];
      expect(branchOf(records, 'u2')).toMatchObject({
        classification: 'rewind-descendant',
        containsRewindUuids: ['r1'],
        siblingRewindUuids: [],
      });
    });

    it('labels a branch beside a rewind a rewind sibling, and the rewind branch a descendant', () => {
      const records = [
        ...base,
        user('u2', 'a1', 'first try'),
        system('r1', 'a1', 'rewind'),
        user('u3', 'r1', 'second try'),
      ];
      const { branches } = inspectConversationBranches(records);
      expect(
        branches.map((b) => [b.leafUuid, b.classification, b.containsRewindUuids, b.siblingRewindUuids]),
      ).toEqual([
        ['u2', 'rewind-sibling', [], ['r1']],
        ['u3', 'rewind-descendant', ['r1'], []],
      ]);
    });

    it('labels a branch with a rewind on its chain and another beside it mixed', () => {
      const records = [
        ...base,
        system('r1', 'a1', 'rewind'),
        user('u2', 'r1', 'after first rewind'),
        assistant('a2', 'u2', 'ok'),
        system('r2', 'a2', 'rewind'),
        user('u3', 'r2', 'after second rewind'),
        user('u4', 'a2', 'kept going'),
      ];
      expect(branchOf(records, 'u4')).toMatchObject({
        classification: 'mixed-rewind',
        containsRewindUuids: ['r1'],
        siblingRewindUuids: ['r2'],
        branchPointUuid: 'a2',
      });
      expect(branchOf(records, 'u3')).toMatchObject({
        classification: 'rewind-descendant',
        containsRewindUuids: ['r1', 'r2'],
        siblingRewindUuids: [],
      });
    });

    it('ignores rewinds of another tree', () => {
      const records = [
        ...base,
        user('v1', null, 'other session'),
        system('r1', 'v1', 'rewind'),
        user('v2', 'r1', 'x'),
      ];
      expect(branchOf(records, 'a1')).toMatchObject({ classification: 'ordinary', siblingRewindUuids: [] });
    });

    it('counts a rewind as the leaf itself as on the chain', () => {
      const records = [...base, system('r1', 'a1', 'rewind')];
      expect(branchOf(records, 'r1')).toMatchObject({
        classification: 'rewind-descendant',
        containsRewindUuids: ['r1'],
      });
    });
  });

  describe('diagnostics', () => {
    it('reports a missing parent and keeps the reachable island as its own tree', () => {
      const records = [
        user('u1', 'ghost', 'orphan one'),
        assistant('a1', 'u1', 'x'),
        user('u2', 'ghost', 'orphan two'),
      ];
      const { branches, diagnostics } = inspectConversationBranches(records);
      expect(diagnostics).toEqual([
        { kind: 'missing-parent', childUuid: 'u1', missingParentUuid: 'ghost' },
        { kind: 'missing-parent', childUuid: 'u2', missingParentUuid: 'ghost' },
      ]);
      expect(branches.map((b) => [b.leafUuid, b.branchPointUuid, b.startedAt])).toEqual([
        ['a1', null, 'at:u1'],
        ['u2', null, 'at:u2'],
      ]);
    });

    it('reports each cycle once, cut at its earliest-written member, and stays bounded', () => {
      const records = [
        user('c1', 'c3', 'one'),
        assistant('c2', 'c1', 'two'),
        user('c3', 'c2', 'three'),
        user('tail', 'c2', 'hanging off the cycle'),
        user('self', 'self', 'own parent'),
      ];
      const { branches, diagnostics } = inspectConversationBranches(records);
      expect(diagnostics).toEqual([
        { kind: 'parent-cycle', uuids: ['c1', 'c2', 'c3'] },
        { kind: 'parent-cycle', uuids: ['self'] },
      ]);
      expect(branches.map((b) => [b.leafUuid, b.startedAt, b.recordCounts.user])).toEqual([
        ['tail', 'at:c1', 2],
      ]);
    });

    it('reports conflicting parents in first-seen order and lets the first record decide', () => {
      const records = [
        user('u1', null, 'a'),
        user('u2', null, 'b'),
        assistant('x', 'u1', 'first'),
        assistant('x', 'u2', 'second'),
        assistant('x', 'u1', 'third'),
        assistant('x', null, 'fourth'),
      ];
      const { branches, diagnostics } = inspectConversationBranches(records);
      expect(diagnostics).toEqual([
        { kind: 'conflicting-parent', uuid: 'x', parentUuids: ['u1', 'u2', null] },
      ]);
      expect(branches.map((b) => [b.leafUuid, b.startedAt])).toEqual([
        ['u2', 'at:u2'],
        ['x', 'at:u1'],
      ]);
    });

    it('lists per-uuid diagnostics in first-occurrence order, then cycles', () => {
      const records = [
        user('c1', 'c2', 'cycle'),
        user('c2', 'c1', 'cycle'),
        user('m1', 'ghost', 'orphan'),
        user('d1', null, 'dup'),
        user('d1', 'm1', 'dup'),
      ];
      expect(inspectConversationBranches(records).diagnostics.map((d) => d.kind)).toEqual([
        'missing-parent',
        'conflicting-parent',
        'parent-cycle',
      ]);
    });
  });

  describe('texts', () => {
    it('ignores records of another type on a shared uuid and joins same-type fragments', () => {
      const records = [
        user('u1', null, 'hello'),
        assistant('u1', null, 'not a user text'),
        user('u1', null, '  world  '),
        toolResult('u1', null),
      ];
      expect(branchOf(records, 'u1')).toMatchObject({
        lastUserText: 'hello world',
        recordCounts: { user: 1, assistant: 0, toolResult: 0, system: 0 },
      });
      expect(branchOf(records, 'u1').lastAssistantText).toBeUndefined();
    });

    it('does not treat synthetic user records as prompts', () => {
      const records = [
        user('u1', null, 'real prompt'),
        user('u2', 'u1', 'a notification', { subtype: 'notification' }),
        user('u3', 'u2', 'a cron tick', { subtype: 'cron' }),
        user('u4', 'u3', 'typed mid-turn', { subtype: 'mid_turn_user_message' }),
        user('u5', 'u4', 'external notification', { externalInputKind: 'notification' }),
      ];
      expect(branchOf(records, 'u5')).toMatchObject({
        firstUserTextAfterBranchPoint: 'real prompt',
        lastUserText: 'real prompt',
        recordCounts: { user: 5, assistant: 0, toolResult: 0, system: 0 },
      });
    });

    it('prefers displayText, skips thoughts, and never shows tool arguments or results', () => {
      const records = [
        user('u1', null, '@big-file.txt expanded contents', {
          systemPayload: { displayText: '@big-file.txt' },
        }),
        record('a1', 'u1', 'assistant', {
          message: {
            role: 'model',
            parts: [
              { text: 'private reasoning', thought: true },
              { text: 'Visible answer' },
              { functionCall: { name: 'write_file', args: { content: 'SECRET ARGUMENT' } } },
            ],
          },
        }),
        toolResult('t1', 'a1'),
        record('a2', 't1', 'assistant', {
          message: { role: 'model', parts: [{ text: 'only thinking', thought: true }] },
        }),
      ];
      expect(branchOf(records, 'a2')).toMatchObject({
        lastUserText: '@big-file.txt',
        lastAssistantText: 'Visible answer',
      });
    });

    it('omits text keys when a chain has no text', () => {
      const records = [
        record('u1', null, 'user', { message: { role: 'user', parts: [{ inlineData: {} }] } }),
      ];
      const branch = branchOf(records, 'u1');
      expect(Object.keys(branch)).toEqual([
        'leafUuid',
        'branchPointUuid',
        'classification',
        'containsRewindUuids',
        'siblingRewindUuids',
        'recordCounts',
        'startedAt',
        'updatedAt',
      ]);
    });

    it('takes the first prompt strictly after the branch point and the latest prompt with text', () => {
      const records = [
        user('u1', null, 'shared prompt'),
        assistant('a1', 'u1', 'shared answer'),
        user('u2', 'a1', 'left'),
        user('u3', 'a1', 'right first'),
        record('u4', 'u3', 'user', { message: { role: 'user', parts: [] } }),
      ];
      expect(branchOf(records, 'u4')).toMatchObject({
        branchPointUuid: 'a1',
        firstUserTextAfterBranchPoint: 'right first',
        lastUserText: 'right first',
        lastAssistantText: 'shared answer',
      });
    });

    it('truncates to 200 characters plus ... after collapsing whitespace', () => {
      const long = `${'x'.repeat(150)}\n\n\t${'y'.repeat(100)}`;
      const records = [user('u1', null, long), assistant('a1', 'u1', 'z'.repeat(200))];
      const branch = branchOf(records, 'a1');
      expect(branch.lastUserText).toBe(`${'x'.repeat(150)} ${'y'.repeat(49)}...`);
      expect(branch.lastAssistantText).toBe('z'.repeat(200));
    });
  });

  it('orders branches by the physical position of their last terminal, never by timestamps', () => {
    const records = [
      user('u1', null, 'start', { timestamp: '2030-01-01' }),
      user('left', 'u1', 'left', { timestamp: '2029-01-01' }),
      user('right', 'u1', 'right', { timestamp: '2020-01-01' }),
      system('title', 'left', 'custom_title', { timestamp: '2019-01-01' }),
    ];
    const { branches } = inspectConversationBranches(records);
    expect(branches.map((b) => [b.leafUuid, b.startedAt, b.updatedAt])).toEqual([
      ['right', '2030-01-01', '2020-01-01'],
      ['left', '2030-01-01', '2019-01-01'],
    ]);
  });

  it('positions a duplicated terminal by its first record, never a later copy', () => {
    const records = [
      user('u1', null, 'start'),
      user('a', 'u1', 'a'),
      user('b', 'u1', 'b'),
      user('a', 'u1', 'a again', { timestamp: 'late' }),
    ];
    expect(inspectConversationBranches(records).branches.map((b) => [b.leafUuid, b.updatedAt])).toEqual([
      ['a', 'at:a'],
      ['b', 'at:b'],
    ]);
    expect(referenceInspect(records).branches.map((b) => b.leafUuid)).toEqual(['a', 'b']);
  });

  it('orders a leaf by the first record of its last collapsed terminal, even when a title is rewritten', () => {
    const records = [
      user('u1', null, 'start'),
      user('left', 'u1', 'left'),
      system('title', 'left', 'custom_title'),
      user('right', 'u1', 'right'),
      system('title', 'left', 'custom_title', { timestamp: 'rewritten' }),
    ];
    expect(inspectConversationBranches(records).branches.map((b) => [b.leafUuid, b.updatedAt])).toEqual([
      ['left', 'at:title'],
      ['right', 'at:right'],
    ]);
  });

  describe('antichain inside parent cycles (first-record parent rule)', () => {
    it('drops a cycle member reached by collapsing a neutral tail when another candidate reaches the cycle', () => {
      // c1 → c3 → c2 → c1: cut at c1, so in the forest c3 is not above `tail`; by the parent
      // links as written it is (tail → c2 → c1 → c3).
      const records = [
        user('c1', 'c3', 'one'),
        assistant('c2', 'c1', 'two'),
        user('c3', 'c2', 'three'),
        user('tail', 'c2', 'hanging off the cycle'),
        system('meta', 'c3', 'session_artifact_event'),
      ];
      const result = inspectConversationBranches(records);
      expect(result.branches.map((b) => b.leafUuid)).toEqual(['tail']);
      expect(referenceInspect(records).branches.map((b) => b.leafUuid)).toEqual(['tail']);
    });

    it('collapses a neutral tail round the cycle when the cut member is neutral', () => {
      const records = [
        system('n1', 'c2', 'session_artifact_snapshot'),
        user('c2', 'n1', 'significant member'),
        system('title', 'n1', 'custom_title'),
      ];
      const result = inspectConversationBranches(records);
      expect(result.branches.map((b) => [b.leafUuid, b.updatedAt])).toEqual([['c2', 'at:title']]);
      expect(result).toEqual(referenceInspect(records));
    });

    it('omits a neutral tail on a cycle of neutral records only', () => {
      const records = [
        system('n1', 'n2', 'custom_title'),
        system('n2', 'n1', 'custom_title'),
        system('tail', 'n2', 'session_artifact_event'),
      ];
      expect(inspectConversationBranches(records).branches).toEqual([]);
      expect(referenceInspect(records).branches).toEqual([]);
    });

    it('keeps a lone cycle member reached by a neutral tail as the leaf', () => {
      const records = [
        user('c1', 'c2', 'one'),
        assistant('c2', 'c1', 'two'),
        system('t', 'c1', 'custom_title'),
      ];
      const result = inspectConversationBranches(records);
      expect(result.branches.map((b) => b.leafUuid)).toEqual(['c1']);
      expect(result).toEqual(referenceInspect(records));
    });
  });
});
