// POST /api/conversations/{id}/turns/{k}/retry through its route, with the studio configured for a
// real OpenAI-compatible model served by a local server: a refused key fails the send with the
// provider's words, the retry streams the next attempt of the same turn, and a second retry of a
// complete reply is a 409.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@trellis/agent/testing';
import { testDatabaseUrl } from '@trellis/db/testing';
import { MessageListSchema, TurnEventSchema, type TurnEvent } from '@trellis/domain';
import { params, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let threadId = '';
let server: FakeProviderServer;
let routes: { messages: { GET: Handler; POST: Handler }; retry: { POST: Handler } };

let request: RouteSession['request'];

function eventsOf(text: string): TurnEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [head, data] = block.split('\n');
      return TurnEventSchema.parse({ event: head!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) as unknown });
    });
}

beforeAll(async () => {
  server = await startFakeProvider('openai', [
    { error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    { text: 'The answer, at last.', usage: { input: 30, output: 5 } },
  ]);
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-retry-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  process.env.LLM_PROVIDER = 'openai';
  process.env.LLM_BASE_URL = server.url;
  process.env.LLM_API_KEY = 'sk-route-test-key-0123456789';
  process.env.LLM_MODEL = 'local-model';
  process.env.LLM_MAX_RETRIES = '0';
  routes = {
    messages: await import('@/app/api/conversations/[id]/messages/route'),
    retry: await import('./route'),
  };
  ({ request, threadId } = await signUpWithConversation('Retry'));
}, 120_000);

afterAll(async () => {
  await server.close();
});

const retry = (k: string) => routes.retry.POST(request(`/api/conversations/${threadId}/turns/${k}/retry`, { method: 'POST' }), params({ id: threadId, k }));

describe('POST /api/conversations/{id}/turns/{k}/retry', () => {
  it('answers a failed turn again in place, then refuses to retry a complete reply', async () => {
    const sent = await routes.messages.POST(
      request(`/api/conversations/${threadId}/messages`, { method: 'POST', body: JSON.stringify({ content: 'Hello?' }) }),
      params({ id: threadId }),
    );
    const failed = eventsOf(await sent.text());
    expect(failed.at(-1)).toMatchObject({ event: 'error', data: { code: 'upstream_failed', reason_code: 'auth' } });
    expect(JSON.stringify(failed.at(-1))).toContain('401: Incorrect API key provided');

    const response = await retry('1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = eventsOf(await response.text());
    expect(events[0]).toEqual({ event: 'turn', data: { turn_index: 1, thread_id: threadId, attempt: 2 } });
    expect(events.at(-1)!.event).toBe('done');

    const listed = MessageListSchema.parse(
      await (await routes.messages.GET(request(`/api/conversations/${threadId}/messages`), params({ id: threadId }))).json(),
    );
    expect(listed.messages.map((m) => [m.turn_index, m.role, m.status, m.attempt, m.reason_code])).toEqual([
      [1, 'user', 'complete', undefined, undefined],
      [1, 'assistant', 'failed', undefined, 'auth'],
      [1, 'assistant', 'complete', 2, undefined],
    ]);
    expect(listed.messages[2]!.usage).toEqual({ input_tokens: 30, output_tokens: 5, model: 'local-model' });

    const again = await retry('1');
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('conflict');
  });

  it('answers 404 for a turn that does not exist and for a malformed id', async () => {
    expect((await retry('7')).status).toBe(404);
    const malformed = await routes.retry.POST(request('/api/conversations/nope/turns/1/retry', { method: 'POST' }), params({ id: 'nope', k: '1' }));
    expect(malformed.status).toBe(404);
  });
});
