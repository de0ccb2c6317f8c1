// The route wrapper against a real database: the contract's refusals come
// before any service runs, with the status and code the contract declares.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import type { logger as Logger } from './logger';

const BASE = 'http://127.0.0.1:3000';
let cookie = '';
type Handler = (request: Request, route: { params: Promise<unknown> }) => Promise<Response>;
let logger: typeof Logger;
let routes: {
  conversations: { POST: Handler };
  conversation: { GET: Handler; PATCH: Handler };
  unknown: { GET: Handler };
};

function request(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`${BASE}${path}`, {
    method: init.method ?? 'GET',
    headers: { origin: BASE, host: '127.0.0.1:3000', 'content-type': 'application/json', cookie, ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

const params = (value: Record<string, unknown>) => ({ params: Promise.resolve(value) });

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-route-test-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  const auth = (await import('@/app/api/auth/[...all]/route')) as unknown as { POST: Handler };
  logger = (await import('./logger')).logger;
  routes = {
    conversations: await import('@/app/api/conversations/route'),
    conversation: await import('@/app/api/conversations/[id]/route'),
    unknown: await import('@/app/api/[...unknown]/route'),
  };
  const email = `route-${randomUUID()}@example.test`;
  const signUp = await auth.POST(
    request('/api/auth/sign-up/email', { method: 'POST', body: JSON.stringify({ email, password: 'correct horse battery', name: 'Route Test' }) }),
    params({ all: ['sign-up', 'email'] }),
  );
  expect(signUp.status).toBe(200);
  cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0]!;
}, 120_000);

describe('defineRoute', () => {
  it('refuses a NUL character in a request string with a 422 naming the field', async () => {
    const response = await routes.conversations.POST(request('/api/conversations', { method: 'POST', body: JSON.stringify({ title: 'a\u0000b' }) }), params({}));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; details: { issues: { path: string; message: string }[] } } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.issues).toContainEqual({ path: 'title', message: 'contains a NUL character' });
  });

  it('refuses a lone surrogate the same way', async () => {
    const response = await routes.conversations.POST(request('/api/conversations', { method: 'POST', body: '{"title":"a\\ud800b"}' }), params({}));
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('contains a lone surrogate');
  });

  it('answers 404 for a malformed id without reaching the service', async () => {
    const response = await routes.conversation.GET(request('/api/conversations/%00'), params({ id: '\u0000' }));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('reads at most 1 MB of an ordinary JSON body (413), whatever content-length claims', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(1_100_000) });
    const response = await routes.conversations.POST(request('/api/conversations', { method: 'POST', body: big, headers: { 'content-length': '10' } }), params({}));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('logs a body the client aborted at info, not as an unhandled error', async () => {
    const info = vi.spyOn(logger, 'info');
    const error = vi.spyOn(logger, 'error');
    try {
      // What Next hands a route when the client gives up mid-upload: a body stream that errors with Node's "aborted".
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"title":"half'));
          setTimeout(() => controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), 10);
        },
      });
      const aborted = new Request(`${BASE}/api/conversations`, {
        method: 'POST',
        headers: { origin: BASE, host: '127.0.0.1:3000', 'content-type': 'application/json', cookie },
        body,
        duplex: 'half',
      } as RequestInit);
      const response = await routes.conversations.POST(aborted, params({}));
      expect(response.status).toBe(400);
      expect(error).not.toHaveBeenCalled();
      expect(info).toHaveBeenCalledWith({ cause: 'aborted' }, 'request aborted by the client');
    } finally {
      info.mockRestore();
      error.mockRestore();
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await routes.unknown.GET(request('/api/nothing/here'), params({ unknown: ['nothing', 'here'] }));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('still creates and answers a conversation within its contract', async () => {
    const created = await routes.conversations.POST(request('/api/conversations', { method: 'POST', body: JSON.stringify({ title: 'Fine' }) }), params({}));
    expect(created.status).toBe(201);
    const { thread_id } = (await created.json()) as { thread_id: string };
    const read = await routes.conversation.GET(request(`/api/conversations/${thread_id}`), params({ id: thread_id }));
    expect(read.status).toBe(200);
  });
});
