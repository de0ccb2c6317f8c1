// A retry belongs to the server, like a send: the tab that started it closes (its request is
// aborted and its stream cancelled) and the attempt still runs to its end, stored `complete`.
// Through the routes, with the offline model slowed so the attempt is still running when the tab goes.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { MessageListSchema, type MessageList } from '@trellis/domain';
import { params, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let threadId = '';
let request: RouteSession['request'];
let routes: { messages: { GET: Handler; POST: Handler }; retry: { POST: Handler }; stop: { POST: Handler } };

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-retry-tab-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  process.env.LLM_PROVIDER = 'offline';
  process.env.TRELLIS_OFFLINE_CHUNK_DELAY_MS = '30';
  routes = {
    messages: await import('@/app/api/conversations/[id]/messages/route'),
    retry: await import('./route'),
    stop: await import('@/app/api/conversations/[id]/turns/[k]/stop/route'),
  };
  ({ request, threadId } = await signUpWithConversation('RetryTab'));
}, 120_000);

/** Reads the SSE body until its first `token` event, then lets go of it as a closing tab does. */
async function readUntilFirstToken(response: Response, onFirstToken: () => void): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('event: token')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before a token: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  onFirstToken();
  await reader.cancel();
}

async function transcript(): Promise<MessageList['messages']> {
  const response = await routes.messages.GET(request(`/api/conversations/${threadId}/messages`), params({ id: threadId }));
  return MessageListSchema.parse(await response.json()).messages;
}

async function waitForAttempt(attempt: number): Promise<MessageList['messages'][number]> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const reply = (await transcript()).find((m) => m.role === 'assistant' && (m.attempt ?? 1) === attempt);
    if (reply) return reply;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`attempt ${attempt} was never stored`);
}

describe('POST /api/conversations/{id}/turns/{k}/retry when its tab closes', () => {
  it('runs the attempt to its end: the retry is stored complete, not interrupted', async () => {
    const sent = await routes.messages.POST(
      request(`/api/conversations/${threadId}/messages`, { method: 'POST', body: JSON.stringify({ content: 'help' }) }),
      params({ id: threadId }),
    );
    await readUntilFirstToken(sent, () => undefined);
    const stopped = await routes.stop.POST(request(`/api/conversations/${threadId}/turns/1/stop`, { method: 'POST' }), params({ id: threadId, k: '1' }));
    expect(stopped.status).toBe(200);
    expect(await waitForAttempt(1)).toMatchObject({ status: 'interrupted' });

    // The tab's request carries an abort signal, as a browser's does; closing the tab fires it.
    const tab = new AbortController();
    const retried = await routes.retry.POST(
      new Request(request(`/api/conversations/${threadId}/turns/1/retry`, { method: 'POST' }), { signal: tab.signal }),
      params({ id: threadId, k: '1' }),
    );
    expect(retried.status).toBe(200);
    await readUntilFirstToken(retried, () => tab.abort());

    const reply = await waitForAttempt(2);
    expect(reply).toMatchObject({ status: 'complete', attempt: 2 });
    expect(reply.content.length).toBeGreaterThan(100);
  }, 120_000);
});
