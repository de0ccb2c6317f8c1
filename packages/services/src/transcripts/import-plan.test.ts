import { describe, expect, it } from 'vitest';
import { AppError } from '@trellis/domain';
import { buildOrderedUuidChain, parseQwenJsonl, type ChatRecord } from '@trellis/transcripts';
import { MAX_LINEAGE_DEPTH } from '../lineage/load-lineage';
import { planFamily, planSeparate, ownedTurns, type LeafPath } from './import-plan';
import { chainOf, indexTranscript } from './transcript-index';
import { createTitleSource } from './transcript-titles';
import { turnsOf, type ImportedTurn } from './transcript-turns';
import { assistant, jsonl, nestedSession, system, threeLeafSession, toolResult, user } from './fixtures/qwen-sessions';

const records = (text: string): ChatRecord[] => parseQwenJsonl(text).records;

const turn = (key: string): ImportedTurn => ({
  key,
  prompt: `prompt ${key}`,
  promptAt: null,
  reply: `reply ${key}`,
  replyAt: null,
  toolCalls: [],
  compactedBefore: false,
});

const leaf = (leafUuid: string, keys: string[], title = leafUuid): LeafPath => ({
  leafUuid,
  turns: keys.map(turn),
  title,
  hasOwnTitle: false,
});

function ids() {
  let n = 0;
  return () => `t${n++}`;
}

describe('chainOf', () => {
  it('agrees with buildOrderedUuidChain for every record, through missing parents and cycles', () => {
    const withGaps = [
      ...records(nestedSession()),
      ...records(threeLeafSession()),
      ...records(
        jsonl(
          user('orphan', 'gone', 'hello'),
          user('c1', 'c3', 'a'),
          user('c2', 'c1', 'b'),
          user('c3', 'c2', 'c'),
          user('below', 'c2', 'd'),
          user('dup', 'p1', 'first parent wins'),
          user('dup', 'b1', 'second copy'),
        ),
      ),
    ];
    const index = indexTranscript(withGaps);
    for (const { uuid } of withGaps) {
      expect(chainOf(index, uuid), uuid).toEqual(buildOrderedUuidChain(withGaps, { leafUuid: uuid }).uuids);
    }
    expect(chainOf(index, 'unknown')).toEqual([]);
  });
});

describe('turnsOf', () => {
  const read = (...lines: Record<string, unknown>[]) => {
    const index = indexTranscript(records(jsonl(...lines)));
    return turnsOf(index, chainOf(index, String(lines.at(-1)!.uuid)), Date.parse('2025-06-01T00:00:00Z'));
  };

  it('opens a turn at each real prompt only; reasoning, injected inputs and system records stay out', () => {
    const turns = read(
      system('start', null, 'session_start'),
      assistant('pre', 'start', [{ text: 'before any prompt' }]),
      user('u1', 'pre', 'typed', { systemPayload: { displayText: 'what the user saw' } }),
      assistant('a1', 'u1', [{ text: 'hmm', thought: true }, { text: 'Answer one' }]),
      user('mid', 'a1', 'injected', { subtype: 'mid_turn_user_message' }),
      user('note', 'mid', 'ping', { externalInputKind: 'notification' }),
      assistant('a1b', 'note', [{ text: 'and more' }]),
      system('cmp', 'a1b', 'compression'),
      user('u2', 'cmp', 'second'),
    );
    expect(turns.map((t) => [t.prompt, t.reply])).toEqual([
      ['what the user saw', 'Answer one\n\nand more'],
      ['second', null],
    ]);
    expect(turns[0]!.key).toBe(['u1', 'a1', 'a1b'].join('\u0000'));
  });

  it('pairs tool results with their calls by id, else by name; marks errors; clamps long output', () => {
    const turns = read(
      user('u1', null, 'go'),
      assistant('a1', 'u1', [
        { functionCall: { id: 'x', name: 'read', args: { path: 'a' } } },
        { functionCall: { name: 'list', args: 'raw' } },
      ]),
      toolResult('r1', 'a1', 'x', 'read', 'A'.repeat(5000)),
      {
        ...toolResult('r2', 'r1', 'none', 'list', ''),
        message: { role: 'user', parts: [{ functionResponse: { name: 'list', response: { error: 'denied' } } }] },
      },
      assistant('a2', 'r2', [{ text: 'done' }]),
    );
    const [read1, list] = turns[0]!.toolCalls;
    expect(read1).toMatchObject({ id: 'x', name: 'read', args: { path: 'a' } });
    expect(read1!.result).toHaveLength(4000);
    expect(list).toEqual({ id: 'call_2', name: 'list', args: { value: 'raw' }, result: 'denied', is_error: true });
    expect(turns[0]!.reply).toBe('done');
  });

  it('keeps usable times only, and does not repeat the text of a uuid written twice', () => {
    const turns = read(
      { ...user('u1', null, 'hi'), timestamp: 'yesterday-ish' },
      { ...assistant('a1', 'u1', [{ text: 'hello' }]), timestamp: '2025-05-01T10:00:00Z' },
      { ...assistant('a1', 'u1', [{ text: 'hello' }]), timestamp: '2025-05-01T10:00:01Z' },
      { ...user('u2', 'a1', 'later'), timestamp: '2999-01-01T00:00:00Z' },
    );
    expect(turns[0]).toMatchObject({ promptAt: null, reply: 'hello', replyAt: '2025-05-01T10:00:01.000Z' });
    expect(turns[1]!.promptAt).toBeNull();
  });
});

describe('titles', () => {
  it('a custom title belongs to the chains holding its nearest non-neutral ancestor; else the first prompt, clamped', () => {
    const text = jsonl(
      user('u1', null, `${'long '.repeat(30)}prompt`),
      assistant('a1', 'u1', [{ text: 'x' }]),
      system('art', 'a1', 'session_artifact_event'),
      system('t1', 'art', 'custom_title', { systemPayload: { title: 'Named' } }),
      assistant('a1b', 'u1', [{ text: 'y' }]),
    );
    const index = indexTranscript(records(text));
    const titles = createTitleSource(index, text);
    const named = chainOf(index, 'a1');
    expect(titles.titleOf(named, turnsOf(index, named))).toEqual({ title: 'Named', isOwn: true });
    const other = chainOf(index, 'a1b');
    const fallback = titles.titleOf(other, turnsOf(index, other));
    expect(fallback.isOwn).toBe(false);
    expect(fallback.title).toHaveLength(80);
    expect(fallback.title.endsWith('…')).toBe(true);
  });
});

describe('planFamily', () => {
  it('shares prefixes, forks at the divergence from the thread owning that turn, and maps prefixes to their owner', () => {
    const plan = planFamily(
      [
        leaf('empty', []),
        leaf('A', ['1', '2', '3']),
        leaf('B', ['1', '2', 'x3', 'x4']),
        leaf('C', ['1', '2', 'x3', 'y4']),
        leaf('D', ['1', '2', 'x3']),
        leaf('E', ['z1']),
        leaf('F', ['1', '2', '3', '4']),
      ],
      ids(),
    );
    expect(plan.threads.map((t) => [t.threadId, t.parentThreadId, t.branchPointTurn, t.depth])).toEqual([
      ['t0', null, null, 0],
      ['t1', 't0', 2, 1],
      ['t2', 't1', 3, 2],
      ['t3', 't0', 0, 1],
      // extending a path at its tip is a branch at the tip (a tip continuation)
      ['t4', 't0', 3, 1],
    ]);
    expect(plan.conversations.map((c) => `${c.leaf_uuid}→${c.thread_id}`)).toEqual([
      'empty→t0',
      'A→t0',
      'B→t1',
      'C→t2',
      'D→t1',
      'E→t3',
      'F→t4',
    ]);
    expect(plan.root_thread_id).toBe('t0');
    expect(ownedTurns(plan.threads[2]!).map((o) => [o.turnIndex, o.turn.key])).toEqual([[4, 'y4']]);
    // every fork is named by its first prompt after the fork (the root by its leaf's title)
    expect(plan.threads.map((t) => t.title)).toEqual(['A', 'prompt x3', 'prompt y4', 'prompt z1', 'prompt 4']);
  });

  it('refuses a family without a prompt, and forks nested deeper than the lineage walk reaches', () => {
    expect(() => planFamily([leaf('a', []), leaf('b', [])], ids())).toThrow(AppError);
    const deep: LeafPath[] = [];
    const keys: string[] = [];
    for (let i = 0; i <= MAX_LINEAGE_DEPTH + 1; i++) {
      keys.push(`k${i}`);
      deep.push(leaf(`L${i}`, [...keys]));
    }
    // each leaf extends the previous one by a turn: depth grows by one per leaf
    expect(() => planFamily(deep.slice(0, MAX_LINEAGE_DEPTH + 1), ids())).not.toThrow();
    expect(() => planFamily(deep, ids())).toThrow(/deeper than 50 levels/);
  });
});

describe('planSeparate', () => {
  it('one root per leaf owning its whole chain', () => {
    const plan = planSeparate([leaf('A', ['1', '2']), leaf('B', ['1', 'x'])], ids());
    expect(plan.threads.map((t) => [t.parentThreadId, t.branchPointTurn, t.path.length])).toEqual([
      [null, null, 2],
      [null, null, 2],
    ]);
    expect(plan.root_thread_id).toBeNull();
    expect(() => planSeparate([leaf('A', ['1']), leaf('none', [])], ids())).toThrow(/no user prompt/);
  });
});
