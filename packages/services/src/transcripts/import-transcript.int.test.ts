import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { AppError, MAX_TRANSCRIPT_BYTES, type Message } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import type { ServiceDeps } from '../deps';
import { listMessages } from '../lineage/list-messages';
import { getFamilyGraph } from '../graph/get-family-graph';
import { listConversations } from '../conversations/list-conversations';
import { getConversation } from '../conversations/get-conversation';
import { getWorkspace } from '../workspace/get-workspace';
import { sweepPendingBranches } from '../branching/sweep-pending-branches';
import { importTranscript } from './import-transcript';
import { inspectTranscript } from './inspect-transcript';
import { assistant, jsonl, nestedSession, system, threeLeafSession, user } from './fixtures/qwen-sessions';
import { claudeCodeSession } from './fixtures/claude-code-sessions';
import { expectCode } from '../testing/expect-code';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

async function transcriptOf(actor: { userId: string }, threadId: string): Promise<Message[]> {
  return (await listMessages(h.deps, actor, { threadId, limit_turns: 1000 })).messages;
}

const said = (messages: Message[]) =>
  messages.map((m) => `${m.turn_index}${m.role === 'user' ? 'U' : 'A'}: ${m.content}`);

/** Rows of every kind the import writes, for one user. */
async function rowsOf(userId: string): Promise<Record<string, number>> {
  const [row] = await h.deps.db.execute<Record<string, number>>(sql`
    select
      (select count(*) from conversations where user_id = ${userId})::int as conversations,
      (select count(*) from conversation_branches where user_id = ${userId})::int as branches,
      (select count(*) from messages m join conversations c using (thread_id) where c.user_id = ${userId})::int as messages,
      (select count(*) from workspace_snapshots s join conversations c using (thread_id) where c.user_id = ${userId})::int as snapshots,
      (select count(*) from documents d join conversations c using (thread_id) where c.user_id = ${userId})::int as documents`);
  return row!;
}

async function checkpointThreads(threadIds?: readonly string[]): Promise<number> {
  const rows = await h.deps.db.execute<{ n: number }>(
    threadIds === undefined
      ? sql`select count(distinct thread_id)::int as n from langgraph.checkpoints`
      : sql`select count(distinct thread_id)::int as n from langgraph.checkpoints
            where thread_id in (select jsonb_array_elements_text(${JSON.stringify(threadIds)}::jsonb))`,
  );
  return rows[0]!.n;
}

async function branchRows(threadIds: readonly string[]) {
  return h.deps.db.execute<{
    thread_id: string;
    parent_thread_id: string;
    branch_point_turn: number;
    status: string;
  }>(sql`
    select thread_id, parent_thread_id, branch_point_turn, status from conversation_branches
    where thread_id in (select jsonb_array_elements_text(${JSON.stringify(threadIds)}::jsonb))`);
}

describe('importTranscript: all leaves as one family', () => {
  it('a rewind, an edited prompt and a regenerated answer: shared turns are shared ancestors, each divergence a branch at the right turn', async () => {
    const actor = await h.newUser();
    const result = await importTranscript(h.deps, actor, {
      content: threeLeafSession(),
      filename: 'garden.jsonl',
    });

    expect(result.conversations.map((c) => c.leaf_uuid)).toEqual(['a3', 'a3b', 'a2e']);
    const [original, regenerated, rewound] = result.conversations.map((c) => c.thread_id) as [
      string,
      string,
      string,
    ];
    expect(new Set([original, regenerated, rewound]).size).toBe(3);
    expect(result.root_thread_id).toBe(original);

    // Lineage: the regenerated answer forks after turn 2, the rewind + edited prompt after turn 1.
    const rows = await branchRows([original, regenerated, rewound]);
    expect(rows.map((r) => [r.thread_id, r.parent_thread_id, r.branch_point_turn, r.status]).sort()).toEqual(
      [
        [regenerated, original, 2, 'active'],
        [rewound, original, 1, 'active'],
      ].sort(),
    );

    // Each leaf's transcript, read through the lineage.
    expect(said(await transcriptOf(actor, original))).toEqual([
      '1U: Plan a small vegetable garden',
      '1A: Start with two raised beds.',
      '2U: Which vegetables grow fastest?',
      '2A: Radishes and lettuce.',
      '3U: How often should I water them?',
      '3A: Every morning.',
    ]);
    const regen = await transcriptOf(actor, regenerated);
    expect(said(regen)).toEqual([
      '1U: Plan a small vegetable garden',
      '1A: Start with two raised beds.',
      '2U: Which vegetables grow fastest?',
      '2A: Radishes and lettuce.',
      '3U: How often should I water them?',
      '3A: Twice a week, deeply.',
    ]);
    // inherited turns belong to the root; the thread stores only what it owns
    expect(regen.map((m) => m.thread_id)).toEqual([
      original,
      original,
      original,
      original,
      regenerated,
      regenerated,
    ]);
    expect(said(await transcriptOf(actor, rewound))).toEqual([
      '1U: Plan a small vegetable garden',
      '1A: Start with two raised beds.',
      '2U: Which herbs grow in shade?',
      '2A: Mint and parsley.',
    ]);
    // the thought is not part of the reply; the tool call and its result are
    expect(regen[1]!.content).not.toContain('sun');
    expect(regen[3]!.tool_calls).toEqual([
      {
        id: 'call_1',
        name: 'search',
        args: { q: 'fast vegetables' },
        result: 'radish 25 days; lettuce 30 days',
      },
    ]);
    // the transcript's own times, not the import's
    expect(regen[0]!.created_at.startsWith('2025-03-01T')).toBe(true);

    // The graph: one thread per distinct path, one node per owned turn, forks at the right nodes.
    const graph = await getFamilyGraph(h.deps, actor, { threadId: regenerated });
    expect(graph.root_thread_id).toBe(original);
    expect(graph.threads.map((t) => [t.thread_id, t.parent_thread_id, t.branch_point_turn]).sort()).toEqual(
      [
        [original, null, null],
        [regenerated, original, 2],
        [rewound, original, 1],
      ].sort(),
    );
    expect(graph.nodes.map((n) => n.id).sort()).toEqual(
      [`${original}:1`, `${original}:2`, `${original}:3`, `${regenerated}:3`, `${rewound}:2`].sort(),
    );
    expect(
      graph.edges
        .filter((e) => e.kind === 'branch')
        .map((e) => e.id)
        .sort(),
    ).toEqual([`${original}:2->${regenerated}:3`, `${original}:1->${rewound}:2`].sort());
    expect(new Set(graph.nodes.map((n) => n.label)).size).toBe(graph.nodes.length);
    expect(graph.nodes.find((n) => n.id === `${rewound}:2`)).toMatchObject({
      user_message: 'Which herbs grow in shade?',
      reply_preview: 'Mint and parsley.',
    });
    expect(graph.nodes.find((n) => n.id === `${original}:2`)?.tool_count).toBe(1);

    // Rows as the turn loop writes them: a snapshot per owned turn, an empty document per thread.
    expect(await rowsOf(actor.userId)).toEqual({
      conversations: 3,
      branches: 2,
      messages: 10,
      snapshots: 5,
      documents: 3,
    });
    const workspace = await getWorkspace(h.deps, actor, { threadId: rewound });
    expect(workspace.document.content).toBe('');
    const listed = (await listConversations(h.deps, actor)).conversations;
    expect(listed.map((c) => c.thread_id).sort()).toEqual([original, regenerated, rewound].sort());
    // an imported fork is named by its first prompt after the fork, the root by the session's title
    expect(Object.fromEntries(listed.map((c) => [c.thread_id, c.title]))).toEqual({
      [original]: 'Garden plan',
      [regenerated]: 'How often should I water them?',
      [rewound]: 'Which herbs grow in shade?',
    });
    const conversation = await getConversation(h.deps, actor, { threadId: rewound });
    expect(conversation).toMatchObject({
      turn_index: 2,
      message_count: 4,
      root_thread_id: original,
      branch_point_turn: 1,
    });
    expect(await checkpointThreads([original, regenerated, rewound])).toBe(3);
  });

  it('continuing an imported branch works: its checkpointer holds the path, and the model sees only that path', async () => {
    const actor = await h.newUser();
    const { conversations } = await importTranscript(h.deps, actor, { content: threeLeafSession() });
    const rewound = conversations.find((c) => c.leaf_uuid === 'a2e')!.thread_id;

    await h.turn(actor, rewound, 'And which flowers?');
    const messages = await transcriptOf(actor, rewound);
    expect(messages.map((m) => m.turn_index)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(messages[4]).toMatchObject({ content: 'And which flowers?', thread_id: rewound });
    const seen = h.model.received
      .at(-1)!
      .filter((m) => m.getType() !== 'system')
      .map((m) => m.text);
    expect(seen).toEqual([
      'Plan a small vegetable garden',
      'Start with two raised beds.',
      'Which herbs grow in shade?',
      'Mint and parsley.',
      'And which flowers?',
    ]);
  });

  it('nests a branch of a branch, adds nothing for a leaf whose turns are already there, and forks a second root island at 0', async () => {
    const actor = await h.newUser();
    const result = await importTranscript(h.deps, actor, { content: nestedSession() });
    const by = Object.fromEntries(result.conversations.map((c) => [c.leaf_uuid, c.thread_id]));
    expect(Object.keys(by)).toEqual(['d4', 'd4y', 'd4x', 'rw2', 'z1']);
    const root = by.d4!;
    expect(result.root_thread_id).toBe(root);
    expect(by.rw2).toBe(root);

    const rows = await branchRows(Object.values(by));
    expect(rows.map((r) => [r.thread_id, r.parent_thread_id, r.branch_point_turn]).sort()).toEqual(
      [
        [by.d4y, root, 2],
        [by.d4x, by.d4y, 3],
        [by.z1, root, 0],
      ].sort(),
    );
    // notifications and cron records open no turn
    expect(said(await transcriptOf(actor, root)).filter((m) => m.includes('U:'))).toEqual([
      '1U: Write a haiku about rain',
      '2U: Make it sadder',
      '3U: Now a limerick',
      '4U: Shorter please',
    ]);
    expect(said(await transcriptOf(actor, by.d4x!))).toEqual([
      '1U: Write a haiku about rain',
      '1A: Soft rain on the roof',
      '2U: Make it sadder',
      '2A: Grey rain, empty street',
      '3U: Now a limerick',
      '3A: A drizzle named Lou',
      '4U: Give it a title',
      '4A: Drizzle Days',
    ]);
    expect(said(await transcriptOf(actor, by.z1!))).toEqual([
      '1U: Unrelated: list three colours',
      '1A: Red, green, blue.',
    ]);

    const graph = await getFamilyGraph(h.deps, actor, { threadId: by.d4x! });
    expect(graph.threads).toHaveLength(4);
    expect(graph.nodes).toHaveLength(4 + 2 + 1 + 1);
    expect(new Set(graph.nodes.map((n) => n.label)).size).toBe(8);
    const ids = new Set(graph.nodes.map((n) => n.id));
    expect(graph.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    expect(await rowsOf(actor.userId)).toMatchObject({ conversations: 4, branches: 3, snapshots: 8 });
  });
});

describe('importTranscript: chosen leaves as separate conversations', () => {
  it('gives each chosen leaf an independent conversation holding its full chain', async () => {
    const actor = await h.newUser();
    const result = await importTranscript(h.deps, actor, {
      content: threeLeafSession(),
      leaf_uuids: ['a2e', 'a3b'],
    });
    expect(result.root_thread_id).toBeNull();
    // in the transcript's order, whatever the order chosen
    expect(result.conversations.map((c) => c.leaf_uuid)).toEqual(['a3b', 'a2e']);
    const [regenerated, rewound] = result.conversations.map((c) => c.thread_id) as [string, string];

    const regen = await transcriptOf(actor, regenerated);
    expect(regen).toHaveLength(6);
    expect(regen.every((m) => m.thread_id === regenerated)).toBe(true);
    expect(regen.at(-1)!.content).toBe('Twice a week, deeply.');
    expect(said(await transcriptOf(actor, rewound)).at(-2)).toBe('2U: Which herbs grow in shade?');

    expect(await branchRows([regenerated, rewound])).toEqual([]);
    const conversations = (await listConversations(h.deps, actor)).conversations;
    expect(conversations.map((c) => [c.thread_id, c.root_thread_id, c.parent_thread_id]).sort()).toEqual(
      [
        [regenerated, regenerated, null],
        [rewound, rewound, null],
      ].sort(),
    );
    // without the session's custom title (it trails the original only), each is named by its first prompt
    expect(conversations.map((c) => c.title)).toEqual([
      'Plan a small vegetable garden',
      'Plan a small vegetable garden',
    ]);
    const graph = await getFamilyGraph(h.deps, actor, { threadId: rewound });
    expect(graph.threads).toHaveLength(1);
    expect(graph.nodes).toHaveLength(2);
    expect(await rowsOf(actor.userId)).toEqual({
      conversations: 2,
      branches: 0,
      messages: 10,
      snapshots: 5,
      documents: 2,
    });
  });

  it('refuses an unknown leaf and a leaf without a prompt with 422, writing nothing', async () => {
    const actor = await h.newUser();
    const error = await expectCode(
      importTranscript(h.deps, actor, { content: threeLeafSession(), leaf_uuids: ['a3', 'u1', 'nope'] }),
      'validation_failed',
    );
    expect(JSON.stringify(error.details)).toContain('nope is not a leaf');
    const promptless = jsonl(
      user('q', null, 'hello'),
      assistant('r', 'q', [{ text: 'hi' }]),
      assistant('lone', null, [{ text: 'orphan reply' }]),
    );
    await expectCode(
      importTranscript(h.deps, actor, { content: promptless, leaf_uuids: ['lone'] }),
      'validation_failed',
    );
    expect(await rowsOf(actor.userId)).toMatchObject({ conversations: 0 });
    // as one family, the promptless leaf is shown by the root
    const family = await importTranscript(h.deps, actor, { content: promptless });
    expect(family.conversations.map((c) => c.thread_id)).toEqual([
      family.root_thread_id,
      family.root_thread_id,
    ]);
  });
});

describe('importTranscript: Claude Code', () => {
  it('reads content blocks, tool results and the session title; skips thinking and progress; reports the malformed line', async () => {
    const actor = await h.newUser();
    const inspection = await inspectTranscript(h.deps, actor, {
      content: claudeCodeSession(),
      filename: 'session.jsonl',
    });
    expect(inspection.format).toBe('claude-code');
    expect(inspection.reader_diagnostics).toEqual([
      expect.objectContaining({ kind: 'malformed-line', line: 8 }),
    ]);
    expect(inspection.branches.map((b) => b.leafUuid)).toEqual(['a5', 'a6']);

    const result = await importTranscript(h.deps, actor, { content: claudeCodeSession() });
    const [first, edited] = result.conversations.map((c) => c.thread_id) as [string, string];
    const messages = await transcriptOf(actor, edited);
    expect(said(messages)).toEqual([
      '1U: Fix the flaky test in utils',
      '1A: Let me run the tests.\n\nThe test depended on the clock; it is deterministic now.',
      '2U: Add a comment explaining the fix',
      '2A: Added a comment above the test.',
    ]);
    expect(messages[1]!.tool_calls).toEqual([
      { id: 'toolu_1', name: 'Bash', args: { command: 'npm test' }, result: '1 failing: utils.test.ts' },
    ]);
    expect(messages[1]!.thread_id).toBe(first);
    expect((await getConversation(h.deps, actor, { threadId: edited })).title).toBe('Fix the flaky test');
    expect((await branchRows([edited]))[0]).toMatchObject({ parent_thread_id: first, branch_point_turn: 1 });
  });
});

describe('importTranscript: the record types current Claude Code writes', () => {
  it('reads permission-mode, ai-title, custom-title, last-prompt, file-history-snapshot, attachment and queue-operation lines without an unreadable line, and titles the family by the session', async () => {
    const actor = await h.newUser();
    const metadata = [
      { type: 'permission-mode', permissionMode: 'default', sessionId: 'cc' },
      {
        type: 'file-history-snapshot',
        messageId: 'm1',
        snapshot: { trackedFileBackups: {} },
        isSnapshotUpdate: false,
      },
      {
        type: 'queue-operation',
        operation: 'enqueue',
        timestamp: '2025-06-01T00:00:00Z',
        sessionId: 'cc',
        content: 'next',
      },
      { type: 'ai-title', aiTitle: 'Tidy the garden notes', sessionId: 'cc' },
      { type: 'last-prompt', lastPrompt: 'Thanks', sessionId: 'cc' },
      { type: 'custom-title', customTitle: 'Garden notes', sessionId: 'cc' },
    ];
    const content = [
      ...metadata.map((line) => JSON.stringify(line)),
      JSON.stringify({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 'cc',
        timestamp: '2025-06-01T00:00:01Z',
        message: {
          role: 'user',
          content:
            '<ide_opened_file>The user opened C:\\Users\\someone\\garden.md</ide_opened_file>Tidy the notes',
        },
      }),
      JSON.stringify({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        sessionId: 'cc',
        timestamp: '2025-06-01T00:00:02Z',
        message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'Tidied.' }] },
      }),
      JSON.stringify({
        type: 'attachment',
        uuid: 'at1',
        parentUuid: 'a1',
        sessionId: 'cc',
        timestamp: '2025-06-01T00:00:03Z',
        attachment: { type: 'todo_reminder' },
      }),
    ].join('\n');
    const inspection = await inspectTranscript(h.deps, actor, { content, filename: 'garden.jsonl' });
    expect(inspection.reader_diagnostics).toEqual([]);
    expect(inspection.reader_diagnostic_count).toBe(0);
    expect(inspection.skipped_record_types).toEqual([]);
    expect(inspection.branches.map((b) => b.leafUuid)).toEqual(['a1']);

    // A type a newer Claude Code may write is listed as skipped, with its count, never as damage.
    const newer = [content, JSON.stringify({ type: 'agent-colour', colour: 'teal', sessionId: 'cc' }), JSON.stringify({ type: 'agent-colour', colour: 'red', sessionId: 'cc' })].join('\n');
    const later = await inspectTranscript(h.deps, actor, { content: newer, filename: 'garden.jsonl' });
    expect(later.reader_diagnostic_count).toBe(0);
    expect(later.skipped_record_types).toEqual([{ record_type: 'agent-colour', count: 2 }]);

    const result = await importTranscript(h.deps, actor, { content });
    const [only] = result.conversations.map((c) => c.thread_id) as [string];
    // The title the person gave the session wins over Claude Code's, and the IDE block's folder path never names it.
    expect((await getConversation(h.deps, actor, { threadId: only })).title).toBe('Garden notes');
  });
});

describe('inspectTranscript', () => {
  it('lists every leaf with its summary and what importing it brings in', async () => {
    const actor = await h.newUser();
    const inspection = await inspectTranscript(h.deps, actor, {
      content: threeLeafSession(),
      filename: 'garden.jsonl',
    });
    expect(inspection).toMatchObject({
      format: 'qwen-code',
      filename: 'garden.jsonl',
      record_count: 13,
      diagnostic_count: 0,
    });
    expect(inspection.branches.map((b) => [b.leafUuid, b.classification])).toEqual([
      ['a3', 'rewind-sibling'],
      ['a3b', 'rewind-sibling'],
      ['a2e', 'rewind-descendant'],
    ]);
    expect(inspection.branches[2]).toMatchObject({
      branchPointUuid: 'a1',
      firstUserTextAfterBranchPoint: 'Which herbs grow in shade?',
      lastAssistantText: 'Mint and parsley.',
    });
    expect(inspection.leaves).toEqual([
      { leaf_uuid: 'a3', turn_count: 3, title: 'Garden plan' },
      { leaf_uuid: 'a3b', turn_count: 3, title: 'Plan a small vegetable garden' },
      { leaf_uuid: 'a2e', turn_count: 2, title: 'Plan a small vegetable garden' },
    ]);
    expect(await rowsOf(actor.userId)).toMatchObject({ conversations: 0 });
  });

  it('lists the first 1,000 unreadable lines by number and counts them all; they are never fatal', async () => {
    const actor = await h.newUser();
    const broken = Array.from({ length: 1_250 }, (_, i) => `{broken ${i}`).join('\n');
    const content = `${broken}\n${jsonl(user('q', null, 'still here'), assistant('r', 'q', [{ text: 'yes' }]))}`;
    const inspection = await inspectTranscript(h.deps, actor, { content });
    expect(inspection.reader_diagnostic_count).toBe(1_250);
    expect(inspection.reader_diagnostics).toHaveLength(1_000);
    expect(inspection.reader_diagnostics[0]).toMatchObject({ kind: 'malformed-line', line: 1 });
    expect(inspection.branches.map((b) => b.leafUuid)).toEqual(['r']);
    const imported = await importTranscript(h.deps, actor, { content });
    expect(said(await transcriptOf(actor, imported.root_thread_id!))).toEqual(['1U: still here', '1A: yes']);
  });
});

describe('limits and errors', () => {
  it('413 over 20 MB, counted in UTF-8 bytes', async () => {
    const actor = await h.newUser();
    const ascii = 'x'.repeat(MAX_TRANSCRIPT_BYTES + 1);
    await expectCode(inspectTranscript(h.deps, actor, { content: ascii }), 'payload_too_large');
    await expectCode(importTranscript(h.deps, actor, { content: ascii }), 'payload_too_large');
    const multibyte = 'é'.repeat(MAX_TRANSCRIPT_BYTES / 2 + 1);
    expect(multibyte.length).toBeLessThan(MAX_TRANSCRIPT_BYTES);
    await expectCode(inspectTranscript(h.deps, actor, { content: multibyte }), 'payload_too_large');
  });

  it('422 with a clear message when no leaf remains: empty, unreadable, or metadata only', async () => {
    const actor = await h.newUser();
    const empty = await expectCode(importTranscript(h.deps, actor, { content: '' }), 'validation_failed');
    expect(empty.message).toBe('The file holds no transcript records');
    const unreadable = await expectCode(
      inspectTranscript(h.deps, actor, { content: 'not json\n{"also": "bad"', filename: 'x.jsonl' }),
      'validation_failed',
    );
    expect(unreadable.message).toBe('x.jsonl holds no transcript records: 2 line(s) could not be read');
    expect(unreadable.details).toMatchObject({
      reader_diagnostics: [
        { kind: 'malformed-line', line: 1 },
        { kind: 'malformed-line', line: 2 },
      ],
    });
    const titleOnly = jsonl(
      system('t', null, 'custom_title', { systemPayload: { customTitle: 'Nothing yet' } }),
    );
    const metadata = await expectCode(
      importTranscript(h.deps, actor, { content: titleOnly }),
      'validation_failed',
    );
    expect(metadata.message).toContain('no conversation leaf');
    const noPrompt = jsonl(assistant('a', null, [{ text: 'talking to myself' }]));
    const silent = await expectCode(
      importTranscript(h.deps, actor, { content: noPrompt }),
      'validation_failed',
    );
    expect(silent.message).toContain('no user prompt');
    expect(await rowsOf(actor.userId)).toMatchObject({ conversations: 0 });
  });
});

describe('all or nothing', () => {
  /** The harness's deps with a checkpointer whose puts fail after `okPuts` successful ones. */
  function withFailingCheckpointer(okPuts: number): ServiceDeps {
    const real = h.deps.checkpointer;
    let puts = 0;
    const failing = new Proxy(real, {
      get(target, property, receiver) {
        if (property === 'put') {
          return async (...args: Parameters<BaseCheckpointSaver['put']>) => {
            if (++puts > okPuts) throw new Error('checkpointer down');
            return target.put(...args);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { ...h.deps, checkpointer: failing };
  }

  it('a seeding failure part-way through leaves no row and no checkpointer thread, and answers 502', async () => {
    const actor = await h.newUser();
    const before = await checkpointThreads();
    const error = await expectCode(
      importTranscript(withFailingCheckpointer(2), actor, { content: nestedSession() }),
      'upstream_failed',
    );
    expect(error.message).toContain('nothing was left behind');
    expect(await rowsOf(actor.userId)).toEqual({
      conversations: 0,
      branches: 0,
      messages: 0,
      snapshots: 0,
      documents: 0,
    });
    expect(await checkpointThreads()).toBe(before);
    // and the same import then succeeds
    const ok = await importTranscript(h.deps, actor, { content: nestedSession() });
    expect(ok.conversations).toHaveLength(5);
  });

  it.each(['branch.after-tx1', 'branch.seed', 'branch.tx2'] as const)(
    'a failure at %s leaves nothing behind',
    async (point) => {
      const faulty = await createHarness({
        fault: async (p) => {
          if (p === point) throw new Error(`injected at ${p}`);
        },
      });
      try {
        const actor = await faulty.newUser();
        const before = await checkpointThreads();
        await expectCode(
          importTranscript(faulty.deps, actor, { content: threeLeafSession() }),
          'upstream_failed',
        );
        expect(await rowsOf(actor.userId)).toEqual({
          conversations: 0,
          branches: 0,
          messages: 0,
          snapshots: 0,
          documents: 0,
        });
        expect(await checkpointThreads()).toBe(before);
      } finally {
        await faulty.deps.close();
      }
    },
  );

  it('readers never see an import in progress; a sweeper reclaims a stalled one leaves first, and the import then fails cleanly', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const stalled = new Promise<void>((resolve) => (reached = resolve));
    const slow = await createHarness({
      fault: async (p) => {
        if (p !== 'branch.after-tx1') return;
        reached();
        await gate;
      },
    });
    try {
      const actor = await slow.newUser();
      const running = importTranscript(slow.deps, actor, { content: nestedSession() }).then(
        () => undefined,
        (e: unknown) => e,
      );
      await stalled;
      expect(await rowsOf(actor.userId)).toMatchObject({ conversations: 4, branches: 4 });
      expect((await listConversations(h.deps, actor)).conversations).toEqual([]);
      const [root] = await h.deps.db.execute<{ thread_id: string }>(
        sql`select thread_id from conversations where user_id = ${actor.userId} and thread_id = root_thread_id`,
      );
      await expectCode(getConversation(h.deps, actor, { threadId: root!.thread_id }), 'not_found');
      await expectCode(h.turn(actor, root!.thread_id, 'sneaking in'), 'not_found');

      // One row per sweep: the deepest go first, so no thread ever shows up without its parent.
      for (let swept = 1; swept > 0;) {
        swept = await sweepPendingBranches(h.deps, { olderThanSeconds: 0, batch: 1 });
        expect((await listConversations(h.deps, actor)).conversations).toEqual([]);
      }
      expect(await rowsOf(actor.userId)).toEqual({
        conversations: 0,
        branches: 0,
        messages: 0,
        snapshots: 0,
        documents: 0,
      });

      release();
      const error = await running;
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('upstream_failed');
      expect(await rowsOf(actor.userId)).toMatchObject({ conversations: 0 });
    } finally {
      release();
      await slow.deps.close();
    }
  });
});
