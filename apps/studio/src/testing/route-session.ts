// Test support for the route int tests: a user signed up through the auth route, their requests
// (same origin, JSON, their session cookie) and one conversation of theirs. Import the routes (and
// call this) only after the test has set the environment env.ts reads.
import { randomUUID } from 'node:crypto';

export type Handler = (request: Request, route: { params: Promise<unknown> }) => Promise<Response>;
export type RequestInit = { method?: string; body?: string };

const BASE = 'http://127.0.0.1:3000';

/** A route's second argument: its path parameters, named like the folders. */
export const params = (value: Record<string, unknown>) => ({ params: Promise.resolve(value) });

export interface RouteSession {
  /** A request to `url` as this user. */
  request: (url: string, init?: RequestInit) => Request;
  threadId: string;
}

export async function signUpWithConversation(name: string): Promise<RouteSession> {
  const { request } = await signUp(name);
  const conversations = (await import('@/app/api/conversations/route')) as unknown as { POST: Handler };
  const created = await conversations.POST(request('/api/conversations', { method: 'POST', body: '{}' }), params({}));
  return { request, threadId: ((await created.json()) as { thread_id: string }).thread_id };
}

/** A user signed up through the auth route: their requests and their user id. */
export async function signUp(name: string): Promise<{ request: RouteSession['request']; userId: string }> {
  let cookie = '';
  const request = (url: string, init: RequestInit = {}): Request =>
    new Request(`${BASE}${url}`, {
      method: init.method ?? 'GET',
      headers: { origin: BASE, host: '127.0.0.1:3000', 'content-type': 'application/json', cookie },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
  const auth = (await import('@/app/api/auth/[...all]/route')) as unknown as { POST: Handler };
  const email = `${name.toLowerCase()}-${randomUUID()}@example.test`;
  const signedUp = await auth.POST(
    request('/api/auth/sign-up/email', { method: 'POST', body: JSON.stringify({ email, password: 'correct horse battery', name }) }),
    params({ all: ['sign-up', 'email'] }),
  );
  cookie = (signedUp.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { request, userId: ((await signedUp.json()) as { user: { id: string } }).user.id };
}
