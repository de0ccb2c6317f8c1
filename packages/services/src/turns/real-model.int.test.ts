// The real provider classes (ChatOpenAI, ChatAnthropic) through the whole turn, against local HTTP
// servers speaking each protocol the way real ones misbehave: a refused key, a rate limit
// with Retry-After, a hang, a stream dropped mid-reply; and a retry in place after a failure.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer, type FakeReply } from '@trellis/agent/testing';
import { TurnEventSchema, type TurnEvent } from '@trellis/domain';
import { testDatabaseUrl } from '@trellis/db/testing';
import { createServiceDeps, type Logger } from '../deps';
import { createBranch } from '../branching/create-branch';
import { listMessages } from '../lineage/list-messages';
import { retryTurn } from './retry-turn';
import { sendTurn } from './send-turn';
import { collect, connectAdmin, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';

const admin = connectAdmin();
const KEY = 'sk-test-Secret0123456789abcdef';

beforeAll(async () => {
  await prepareCheckpointer();
});
afterAll(async () => {
  await admin.close();
});

type Protocol = 'openai' | 'anthropic';

interface Rig {
  server: FakeProviderServer;
  deps: TestDeps;
  logs: unknown[];
  actor: { userId: string };
  threadId: string;
  close(): Promise<void>;
}

async function rig(protocol: Protocol, replies: FakeReply[], policy: { maxRetries?: number; timeoutMs?: number; waitingAfterMs?: number } = {}): Promise<Rig> {
  const server = await startFakeProvider(protocol, replies);
  const logs: unknown[] = [];
  const record = (level: string) => (obj: object, msg?: string) => logs.push({ level, obj, msg });
  const logger: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
  const model =
    protocol === 'openai'
      ? ({ provider: 'openai', baseUrl: server.url, apiKey: KEY, model: 'gpt-test' } as const)
      : ({ provider: 'anthropic', baseUrl: server.url, apiKey: KEY, model: 'claude-test' } as const);
  const deps = createServiceDeps({
    databaseUrl: testDatabaseUrl(),
    model,
    poolSize: 3,
    logger,
    modelCalls: { maxRetries: policy.maxRetries ?? 2, timeoutMs: policy.timeoutMs ?? 10_000, waitingAfterMs: policy.waitingAfterMs ?? 3_000 },
  });
  const actor = await newUser(admin);
  const threadId = await newThread(deps, actor);
  return {
    server,
    deps,
    logs,
    actor,
    threadId,
    close: async () => {
      await Promise.all([server.close(), deps.close()]);
    },
  };
}

async function replies(threadId: string) {
  return admin.db.execute<{
    turn_index: number;
    role: string;
    status: string;
    content: string;
    reason: string | null;
    reason_code: string | null;
    attempt: number;
    input_tokens: number | null;
    output_tokens: number | null;
    model: string | null;
  }>(sql`select turn_index, role, status, content, reason, reason_code, attempt, input_tokens, output_tokens, model
    from messages where thread_id = ${threadId} order by seq`);
}

/** The conversation a request sent to the model, as text (both protocols put it in `messages`). */
function conversationSent(server: FakeProviderServer, index: number): string {
  return JSON.stringify(server.requests[index]!.body.messages);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe.each(['openai', 'anthropic'] as const)('a real model over the %s protocol', (protocol) => {
  it('a refused key fails the reply with the status and the provider’s own message, once, and never shows the key', async () => {
    const r = await rig(protocol, [{ error: { status: 401, message: `Incorrect API key provided: ${KEY}`, type: 'authentication_error' } }]);
    try {
      const events = await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'hello' }));
      for (const event of events) TurnEventSchema.parse(event);
      const [, reply] = await replies(r.threadId);
      expect(reply).toMatchObject({ role: 'assistant', status: 'failed', reason_code: 'auth' });
      expect(reply!.reason).toContain('401');
      expect(reply!.reason).toContain('Incorrect API key provided');
      expect(reply!.reason).toContain('LLM_API_KEY');
      const error = events.at(-1)!;
      expect(error).toMatchObject({ event: 'error', data: { code: 'upstream_failed', reason_code: 'auth' } });
      expect(JSON.stringify(error)).toContain('Incorrect API key provided');
      // The SDK's own retries are off: one request; and the key is in no reason, event or log line.
      expect(r.server.requests).toHaveLength(1);
      expect(JSON.stringify([reply, events, r.logs])).not.toContain(KEY);
      expect(JSON.stringify([reply, events, r.logs])).not.toContain('Secret0123456789');
      expect(r.logs).toContainEqual(expect.objectContaining({ msg: 'the model call failed' }));
    } finally {
      await r.close();
    }
  });

  it('a 429 with Retry-After: 2 waits about 2 s, says so on the stream, retries and succeeds', async () => {
    const r = await rig(protocol, [
      { error: { status: 429, message: 'Rate limit reached for requests', type: 'rate_limit_error', retryAfter: '2' } },
      { text: 'Answered after the wait.', usage: { input: 42, output: 5 } },
    ]);
    try {
      const started = Date.now();
      const events = await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'hello' }));
      const elapsed = Date.now() - started;
      const status = events.find((e) => e.event === 'status');
      expect(status).toMatchObject({ event: 'status', data: { state: 'rate_limited', retry_in_s: 2, retry: 1 } });
      expect((status as Extract<TurnEvent, { event: 'status' }>).data.reason).toContain('429');
      expect(events.indexOf(status!)).toBeLessThan(events.findIndex((e) => e.event === 'token'));
      expect(events.at(-1)!.event).toBe('done');
      expect(r.server.requests).toHaveLength(2);
      const waited = r.server.requests[1]!.at - r.server.requests[0]!.at;
      expect(waited).toBeGreaterThanOrEqual(1_900);
      expect(waited).toBeLessThan(3_500);
      expect(elapsed).toBeGreaterThanOrEqual(1_900);
      const [, reply] = await replies(r.threadId);
      expect(reply).toMatchObject({ status: 'complete', content: 'Answered after the wait.', reason: null, attempt: 1 });
      // Usage, as the provider reported it, with the configured model's name. (LangChain's Anthropic
      // adapter adds message_start's output count, 1, to message_delta's cumulative one.)
      const usage = { input_tokens: 42, output_tokens: protocol === 'openai' ? 5 : 6, model: protocol === 'openai' ? 'gpt-test' : 'claude-test' };
      expect(reply).toMatchObject(usage);
      const listed = await listMessages(r.deps, r.actor, { threadId: r.threadId, limit_turns: 10 });
      expect(listed.messages[1]!.usage).toEqual(usage);
    } finally {
      await r.close();
    }
  });

  it('a provider that never answers fails with a timeout reason within LLM_TIMEOUT_SECONDS, without a silent retry', async () => {
    const r = await rig(protocol, [{ hang: true }, { text: 'never asked' }], { timeoutMs: 1_000, waitingAfterMs: 300 });
    try {
      const started = Date.now();
      const events = await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'hello' }));
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(950);
      expect(elapsed).toBeLessThan(4_500); // the timeout, plus opening and storing the turn on a loaded machine
      expect(events.find((e) => e.event === 'status')).toEqual({ event: 'status', data: { state: 'waiting' } });
      const [, reply] = await replies(r.threadId);
      expect(reply).toMatchObject({ status: 'failed', reason_code: 'timeout' });
      expect(reply!.reason).toContain('timed out');
      expect(r.server.requests).toHaveLength(1);
      expect(r.server.disconnects).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('a stream that stops between tokens times out too, keeping what arrived', async () => {
    const r = await rig(protocol, [{ text: 'one two three four', hangAfterWords: 2 }], { timeoutMs: 800 });
    try {
      await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'hello' }));
      const [, reply] = await replies(r.threadId);
      expect(reply).toMatchObject({ status: 'failed', reason_code: 'timeout', content: 'one two ' });
      expect(r.server.requests).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('a connection dropped mid-reply keeps the partial reply with its reason', async () => {
    const r = await rig(protocol, [{ text: 'one two three four', dropAfterWords: 2 }]);
    try {
      const events = await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'hello' }));
      expect(events.filter((e) => e.event === 'token').map((e) => (e.data).text).join('')).toBe('one two ');
      const [, reply] = await replies(r.threadId);
      expect(reply).toMatchObject({ status: 'failed', reason_code: 'dropped', content: 'one two ' });
      expect(reply!.reason).toContain('dropped mid-reply');
      // Text had reached the person: the call is not sent again.
      expect(r.server.requests).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('retries a failed turn in place: same turn, no new user message, and the model sees the question once and no failed attempt', async () => {
    const r = await rig(protocol, [
      { text: 'Partial words of a doomed reply', dropAfterWords: 3 },
      { text: 'The retried answer.' },
      { text: 'The next answer.' },
      { text: 'The branch answer.' },
    ]);
    try {
      await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'What is a trellis?' }));
      const events = await collect(await retryTurn(r.deps, r.actor, { threadId: r.threadId, turn: 1 }));
      for (const event of events) TurnEventSchema.parse(event);
      expect(events[0]).toEqual({ event: 'turn', data: { turn_index: 1, thread_id: r.threadId, attempt: 2 } });
      expect(events.at(-1)!.event).toBe('done');

      const rows = await replies(r.threadId);
      expect(rows.map((m) => [m.turn_index, m.role, m.status, m.attempt])).toEqual([
        [1, 'user', 'complete', 1],
        [1, 'assistant', 'failed', 1],
        [1, 'assistant', 'complete', 2],
      ]);
      const [conversation] = await admin.db.execute<{ turn_index: number; lease_owner: string | null }>(
        sql`select turn_index, lease_owner from conversations where thread_id = ${r.threadId}`,
      );
      expect(conversation).toEqual({ turn_index: 1, lease_owner: null });
      const snapshots = await admin.db.execute(sql`select 1 from workspace_snapshots where thread_id = ${r.threadId}`);
      expect(snapshots).toHaveLength(1);

      // The retry's request: the question once, nothing of the failed attempt.
      const retried = conversationSent(r.server, 1);
      expect(occurrences(retried, 'What is a trellis?')).toBe(1);
      expect(retried).not.toContain('doomed');
      expect(retried).not.toContain('Partial');

      // The next turn's request (what the checkpointer holds): the question once, the retried answer, no failed attempt.
      await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'And then?' }));
      const next = conversationSent(r.server, 2);
      expect(occurrences(next, 'What is a trellis?')).toBe(1);
      expect(next).toContain('The retried answer.');
      expect(next).not.toContain('Partial');
      expect(occurrences(next, 'And then?')).toBe(1);

      // The transcript keeps both attempts; the API marks the second.
      const listed = await listMessages(r.deps, r.actor, { threadId: r.threadId, limit_turns: 10 });
      expect(listed.messages.map((m) => [m.turn_index, m.role, m.status, m.attempt])).toEqual([
        [1, 'user', 'complete', undefined],
        [1, 'assistant', 'failed', undefined],
        [1, 'assistant', 'complete', 2],
        [2, 'user', 'complete', undefined],
        [2, 'assistant', 'complete', undefined],
      ]);
      expect(listed.messages[1]).toMatchObject({ reason_code: 'dropped', content: 'Partial words of ' });

      // A branch from the retried step is seeded from the transcript: only the last attempt goes along.
      const branch = await createBranch(r.deps, r.actor, { threadId: r.threadId, from_turn: 1 });
      await collect(await sendTurn(r.deps, r.actor, { threadId: branch.thread_id, content: 'On the branch?' }));
      const onBranch = conversationSent(r.server, 3);
      expect(occurrences(onBranch, 'What is a trellis?')).toBe(1);
      expect(onBranch).toContain('The retried answer.');
      expect(onBranch).not.toContain('Partial');
    } finally {
      await r.close();
    }
  });
});

describe('retry in place refuses', () => {
  it('a complete reply, a turn that is not the latest, and another user’s thread', async () => {
    const r = await rig('openai', [{ error: { status: 500, message: 'boom' } }, { text: 'ok' }, { text: 'ok again' }], { maxRetries: 0 });
    try {
      await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'first' }));
      const [, failed] = await replies(r.threadId);
      expect(failed).toMatchObject({ status: 'failed', reason_code: 'provider_error' });
      expect(failed!.reason).toContain('500: boom');
      await collect(await sendTurn(r.deps, r.actor, { threadId: r.threadId, content: 'second' }));
      await expect(retryTurn(r.deps, r.actor, { threadId: r.threadId, turn: 1 })).rejects.toMatchObject({ code: 'conflict' });
      await expect(retryTurn(r.deps, r.actor, { threadId: r.threadId, turn: 2 })).rejects.toMatchObject({ code: 'conflict' });
      await expect(retryTurn(r.deps, r.actor, { threadId: r.threadId, turn: 3 })).rejects.toMatchObject({ code: 'not_found' });
      const stranger = await newUser(admin);
      await expect(retryTurn(r.deps, stranger, { threadId: r.threadId, turn: 2 })).rejects.toMatchObject({ code: 'forbidden' });
      const [conversation] = await admin.db.execute<{ lease_owner: string | null }>(
        sql`select lease_owner from conversations where thread_id = ${r.threadId}`,
      );
      expect(conversation!.lease_owner).toBeNull();
    } finally {
      await r.close();
    }
  });
});
