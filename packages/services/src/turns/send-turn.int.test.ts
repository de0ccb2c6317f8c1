import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_HELP, OfflineChatModel } from '@trellis/agent';
import { newThreadId, parseOrThrow, SendMessageSchema, TurnEventSchema, type TurnEvent } from '@trellis/domain';
import { createPreference } from '../workspace/create-preference';
import { createTodo } from '../workspace/create-todo';
import { getWorkspace } from '../workspace/get-workspace';
import { patchWorkspace } from '../workspace/patch-workspace';
import { updatePreference } from '../workspace/update-preference';
import { updateTodo } from '../workspace/update-todo';
import { deleteConversation } from '../conversations/delete-conversation';
import { readSnapshotState, toState } from '../workspace/snapshot-state';
import { sendTurn } from './send-turn';
import { AttackingChatModel, FailingChatModel } from './test-models';
import { collect, connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';

const admin = connectAdmin();
const model = new OfflineChatModel();
const slowModel = new OfflineChatModel({ chunkDelayMs: 25 });
let deps: TestDeps;
let slow: TestDeps;
const extra: TestDeps[] = [];

beforeAll(async () => {
  await prepareCheckpointer();
  deps = createTestDeps(model);
  slow = createTestDeps(slowModel);
});
afterAll(async () => {
  await Promise.all([deps, slow, ...extra].map((d) => d.close()));
  await admin.close();
});

async function setUp() {
  const actor = await newUser(admin);
  const threadId = await newThread(deps, actor);
  return { actor, threadId };
}

async function send(d: TestDeps, actor: { userId: string }, threadId: string, content: string): Promise<TurnEvent[]> {
  return collect(await sendTurn(d, actor, { threadId, content }));
}

async function threadState(threadId: string) {
  const [conversation] = await admin.db.execute<{
    turn_index: number;
    message_count: number;
    lease_owner: string | null;
  }>(sql`select turn_index, message_count, lease_owner from conversations where thread_id = ${threadId}`);
  const messages = await admin.db.execute<{ turn_index: number; role: string; status: string; content: string }>(
    sql`select turn_index, role, status, content from messages where thread_id = ${threadId} order by seq`,
  );
  const snapshots = await admin.db.execute<{ turn_index: number }>(
    sql`select turn_index from workspace_snapshots where thread_id = ${threadId} order by turn_index`,
  );
  return { conversation: conversation!, messages, snapshotTurns: snapshots.map((s) => s.turn_index) };
}

describe('sendTurn', () => {
  it('streams turn, tokens and tools, then done, and applies the directives to the live workspace', async () => {
    const { actor, threadId } = await setUp();
    const events = await send(deps, actor, threadId, 'objective: Ship it\ntodo: plan\n  todo: detail\nprefer: short');
    for (const event of events) TurnEventSchema.parse(event);
    expect(events[0]).toEqual({ event: 'turn', data: { turn_index: 1, thread_id: threadId } });
    expect(events.filter((e) => e.event === 'tool').map((e) => e.data)).toEqual([
      expect.objectContaining({ name: 'set_objective' }),
      expect.objectContaining({ name: 'add_todo', args: { text: 'plan', depth: 0 } }),
      expect.objectContaining({ name: 'add_todo', args: { text: 'detail', depth: 1 } }),
      expect.objectContaining({ name: 'add_preference' }),
    ]);
    const last = events.at(-1)!;
    expect(last.event).toBe('done');

    const live = await getWorkspace(deps, actor, { threadId });
    expect(live.objective).toBe('Ship it');
    expect(live.todos.map((t) => [t.text, t.depth])).toEqual([
      ['plan', 0],
      ['detail', 1],
    ]);
    const { conversation, messages } = await threadState(threadId);
    expect(conversation).toEqual({ turn_index: 1, message_count: 2, lease_owner: null });
    const reply = messages[1]!;
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete', turn_index: 1 });
    const tokens = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('');
    expect(reply.content).toBe(tokens);
    if (last.event === 'done') {
      const [stored] = await admin.db.execute<{ id: string; tool_calls: unknown[] }>(
        sql`select id::text as id, tool_calls from messages where id = ${last.data.message_id}::uuid`,
      );
      expect(stored?.tool_calls).toHaveLength(4);
    }
  });

  it('captures snapshot k as the live workspace at the start of turn k, manual edits included', async () => {
    const { actor, threadId } = await setUp();
    const doc = (n: number) => `# Draft ${n}\n\n${'lorem ipsum '.repeat(50)}`;
    const turns = [
      'objective: first goal\ntodo: a\nprefer: plain words',
      `doc: ${doc(1)}`,
      'todo: b\n  todo: b.1\ndone: a',
      'append: a closing line',
      'objective: second goal\nartifact: Notes | some notes',
    ];
    for (let k = 1; k <= turns.length; k++) {
      // Manual edits between turns land in the live rows, hence in the next snapshot.
      await patchWorkspace(deps, actor, { threadId, patch: { document: { title: `Title ${k}` } } });
      const pref = await createPreference(deps, actor, { threadId, preference: { text: `manual ${k}`, locked: k % 2 === 0 } });
      if (k > 1) await updatePreference(deps, actor, { threadId, preferenceId: pref.id, patch: { locked: true } });
      const todo = await createTodo(deps, actor, { threadId, todo: { text: `manual todo ${k}`, depth: k % 3 } });
      await updateTodo(deps, actor, { threadId, todoId: todo.id, patch: { done: k % 2 === 1 } });

      const atStart = toState(await getWorkspace(deps, actor, { threadId }));
      const events = await send(deps, actor, threadId, turns[k - 1]!);
      expect(events.at(-1)?.event).toBe('done');
      expect(await readSnapshotState(admin.db, threadId, k)).toEqual(atStart);
      // The agent acted after the capture: the live workspace moved on, the snapshot did not.
      expect(toState(await getWorkspace(deps, actor, { threadId }))).not.toEqual(atStart);
    }
    const [preview] = await admin.db.execute<{ user_message: string }>(
      sql`select user_message from workspace_snapshots where thread_id = ${threadId} and turn_index = 1`,
    );
    expect(preview?.user_message).toBe('objective: first goal todo: a prefer: plain words');
  });

  it('never captures a torn snapshot while manual edits race the start of turns', async () => {
    const { actor, threadId } = await setUp();
    const edits = Array.from({ length: 40 }, (_, i) =>
      createTodo(deps, actor, { threadId, todo: { text: `edit ${String(i).padStart(2, '0')}` } }),
    );
    for (let i = 0; i < 6; i++) await send(deps, actor, threadId, `turn ${i}`);
    await Promise.all(edits);
    await send(deps, actor, threadId, 'last');

    const final = (await getWorkspace(deps, actor, { threadId })).todos;
    expect(final.map((t) => t.position)).toEqual(final.map((_, i) => i));
    let previous = 0;
    for (let k = 1; k <= 7; k++) {
      const todos = (await readSnapshotState(admin.db, threadId, k))!.todos.map((t) => t.text);
      // Each snapshot holds whole edits only: a prefix of the final list, never shrinking.
      expect(todos).toEqual(final.slice(0, todos.length).map((t) => t.text));
      expect(todos.length).toBeGreaterThanOrEqual(previous);
      previous = todos.length;
    }
    expect(previous).toBe(40);
  });

  it('keeps turn_index, snapshots and the transcript gapless over 20 turns', async () => {
    const { actor, threadId } = await setUp();
    for (let i = 1; i <= 20; i++) await send(deps, actor, threadId, i % 4 === 0 ? `todo: step ${i}` : `message ${i}`);
    const { conversation, messages, snapshotTurns } = await threadState(threadId);
    const turns = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(conversation).toEqual({ turn_index: 20, message_count: 40, lease_owner: null });
    expect(snapshotTurns).toEqual(turns);
    expect(messages.map((m) => [m.turn_index, m.role, m.status])).toEqual(
      turns.flatMap((k) => [
        [k, 'user', 'complete'],
        [k, 'assistant', 'complete'],
      ]),
    );
  });

  it('stores an unchanged document body once, whatever the number of turns', async () => {
    const { actor, threadId } = await setUp();
    const body = `# Big\n\n${randomUUID()} ${'x'.repeat(100_000)}`;
    await patchWorkspace(deps, actor, { threadId, patch: { document: { title: 'Big', content: body } } });
    for (let i = 0; i < 5; i++) await send(deps, actor, threadId, `turn ${i}`);
    const hashes = await admin.db.execute<{ document_hash: string }>(
      sql`select document_hash from workspace_snapshots where thread_id = ${threadId}`,
    );
    expect(new Set(hashes.map((h) => h.document_hash)).size).toBe(1);
    const [blob] = await admin.db.execute<{ n: number; content: string }>(
      sql`select count(*)::int as n, max(content) as content from document_blobs where hash = ${hashes[0]!.document_hash}`,
    );
    expect(blob).toEqual({ n: 1, content: body });
  });

  it('never lets the agent change a locked preference', async () => {
    const attacker = new AttackingChatModel();
    const attackDeps = createTestDeps(attacker);
    extra.push(attackDeps);
    const { actor, threadId } = await setUp();
    const locked = await createPreference(deps, actor, { threadId, preference: { text: 'Use British spelling', locked: true } });

    // Directives can only add: a `prefer:` that contradicts the lock adds a new preference.
    await send(deps, actor, threadId, 'prefer: Use American spelling\nprefer: Use British spelling');
    // A model that goes for the lock directly is refused by the port, in SQL.
    const events = await send(attackDeps, actor, threadId, `attack ${locked.id}`);
    const tools = events.filter((e) => e.event === 'tool').map((e) => e.data);
    expect(tools).toEqual([
      expect.objectContaining({ name: 'update_preference', result: expect.stringMatching(/^Refused: .*locked/) }),
      expect.objectContaining({ name: 'remove_preference', result: expect.stringMatching(/^Refused: .*locked/) }),
    ]);
    const [reply] = await admin.db.execute<{ tool_calls: { is_error: boolean }[] }>(
      sql`select tool_calls from messages where thread_id = ${threadId} and role = 'assistant' and turn_index = 2`,
    );
    expect(reply?.tool_calls.map((c) => c.is_error)).toEqual([true, true]);

    const prefs = (await getWorkspace(deps, actor, { threadId })).preferences;
    expect(prefs[0]).toEqual({ id: locked.id, text: 'Use British spelling', locked: true, position: 0, key: locked.key, version: 1 });
    expect(prefs.map((p) => p.text)).toEqual(['Use British spelling', 'Use American spelling', 'Use British spelling']);
  });

  it('gives the model only this thread’s messages and workspace', async () => {
    const alpha = `alpha-${randomUUID()}`;
    const beta = `beta-${randomUUID()}`;
    const a = await setUp();
    const b = await setUp();
    await send(deps, a.actor, a.threadId, `objective: ${alpha}`);
    await send(deps, a.actor, a.threadId, `${alpha} again`);
    const from = model.received.length;
    await send(deps, b.actor, b.threadId, `${beta} one`);
    await send(deps, b.actor, b.threadId, `${beta} two`);
    const calls = model.received.slice(from);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const input of calls) {
      const text = input.map((m) => m.text).join('\n');
      expect(text).not.toContain(alpha);
      expect(text).toContain(beta);
    }
    const lastCall = calls.at(-1)!;
    expect(lastCall.filter((m) => m.type === 'human').map((m) => m.text)).toEqual([`${beta} one`, `${beta} two`]);
  });

  it('records an aborted stream as a consistent, interrupted turn and frees the thread', async () => {
    const { actor, threadId } = await setUp();
    const controller = new AbortController();
    const stream = await sendTurn(slow, actor, { threadId, content: 'hello', signal: controller.signal });
    const seen: TurnEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.filter((e) => e.event === 'token').length === 3) controller.abort();
    }
    const outcome = await stream.settled;
    expect(outcome).toMatchObject({ turnIndex: 1, status: 'interrupted' });

    const { conversation, messages } = await threadState(threadId);
    expect(conversation).toEqual({ turn_index: 1, message_count: 2, lease_owner: null });
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'interrupted'],
    ]);
    const partial = messages[1]!.content;
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(OFFLINE_HELP.length);
    expect(OFFLINE_HELP.startsWith(partial)).toBe(true);

    const next = await send(deps, actor, threadId, 'todo: carry on');
    expect(next[0]).toMatchObject({ event: 'turn', data: { turn_index: 2 } });
    expect(next.at(-1)?.event).toBe('done');
  });

  it('runs the turn to its end when the consumer stops reading (the reply outlives its tab)', async () => {
    const { actor, threadId } = await setUp();
    const stream = await sendTurn(slow, actor, { threadId, content: 'hello' });
    for await (const event of stream) if (event.event === 'token') break;
    expect(await stream.settled).toMatchObject({ status: 'complete' });
    const { conversation, messages } = await threadState(threadId);
    expect(conversation.lease_owner).toBeNull();
    expect(messages.map((m) => m.status)).toEqual(['complete', 'complete']);
  });

  it('keeps what a failing model produced, reports the error and frees the thread', async () => {
    const failing = createTestDeps(new FailingChatModel(2));
    extra.push(failing);
    const { actor, threadId } = await setUp();
    const events = await send(failing, actor, threadId, 'hello');
    expect(events.map((e) => e.event)).toEqual(['turn', 'token', 'token', 'error']);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { code: 'upstream_failed', message: expect.stringContaining('dropped mid-reply') as string, reason_code: 'dropped' },
    });
    const { conversation, messages } = await threadState(threadId);
    expect(conversation.lease_owner).toBeNull();
    expect(messages[1]).toMatchObject({ role: 'assistant', status: 'failed' });
    expect(messages[1]!.content.length).toBeGreaterThan(0);
    expect((await send(deps, actor, threadId, 'again')).at(-1)?.event).toBe('done');
  });
});

describe('the turn lease', () => {
  it('answers turn_in_progress before streaming while another process holds it, and writes nothing', async () => {
    const { actor, threadId } = await setUp();
    await admin.db.execute(sql`
      update conversations set lease_owner = 'another-process', lease_expires_at = now() + interval '1 minute'
      where thread_id = ${threadId}`);
    await expect(sendTurn(deps, actor, { threadId, content: 'hi' })).rejects.toMatchObject({ code: 'turn_in_progress' });
    const { conversation, messages, snapshotTurns } = await threadState(threadId);
    expect(conversation.turn_index).toBe(0);
    expect(messages).toHaveLength(0);
    expect(snapshotTurns).toEqual([]);
  });

  it('is taken over once it expired, so a crashed process never locks a thread for good', async () => {
    const { actor, threadId } = await setUp();
    await admin.db.execute(sql`
      update conversations set lease_owner = 'crashed-process', lease_expires_at = now() - interval '1 second'
      where thread_id = ${threadId}`);
    const events = await send(deps, actor, threadId, 'hi');
    expect(events.at(-1)?.event).toBe('done');
    expect((await threadState(threadId)).conversation.lease_owner).toBeNull();
  });

  it('is renewed while the model runs, beyond its time to live', async () => {
    const { actor, threadId } = await setUp();
    const other = createTestDeps();
    extra.push(other);
    // ~60 streamed words at 60 ms: the turn outlives its 1 s lease several times over
    const slower = createTestDeps(new OfflineChatModel({ chunkDelayMs: 60 }));
    extra.push(slower);
    const lease = { ttlSeconds: 1, renewEveryMs: 150 };
    const stream = await sendTurn(slower, actor, { threadId, content: 'hello' }, { lease });
    let isSettled = false;
    void stream.settled.then(() => (isSettled = true));
    const drained = collect(stream);
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    expect(isSettled, 'the turn must still be running when the lease is checked').toBe(false);
    await expect(sendTurn(other, actor, { threadId, content: 'me too' })).rejects.toMatchObject({
      code: 'turn_in_progress',
    });
    await drained;
    expect((await stream.settled).status).toBe('complete');
  });

  it('checks ownership first: 404 unknown, deleted or pending, 403 someone else’s', async () => {
    const { actor, threadId } = await setUp();
    const stranger = await newUser(admin);
    await expect(sendTurn(deps, stranger, { threadId, content: 'hi' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(sendTurn(deps, actor, { threadId: newThreadId(randomUUID), content: 'hi' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const pending = newThreadId(randomUUID);
    await admin.db.execute(sql`
      insert into conversations (thread_id, user_id, root_thread_id, title) values (${pending}, ${actor.userId}, ${threadId}, 'b')`);
    await admin.db.execute(sql`
      insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
      values (${pending}, ${threadId}, 0, ${actor.userId}, 'pending')`);
    await expect(sendTurn(deps, actor, { threadId: pending, content: 'hi' })).rejects.toMatchObject({ code: 'not_found' });
    await deleteConversation(deps, actor, { threadId });
    await expect(sendTurn(deps, actor, { threadId, content: 'hi' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await threadState(threadId)).conversation.turn_index).toBe(0);
  });

  it('validates the message body (422)', () => {
    for (const body of [{ content: '' }, { content: '   ' }, {}, { content: 'x'.repeat(32_001) }, { content: 'x', extra: 1 }]) {
      expect(() => parseOrThrow(SendMessageSchema, body)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });
});
