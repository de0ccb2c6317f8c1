// The CSRF guard on every state-changing route, found by walking the route folders (a new route is
// covered without editing this file): a cookie request must show a same-origin Origin or
// `Sec-Fetch-Site: same-origin`, body or not, and `X-Forwarded-Host` counts only from a listed
// proxy. Bearer-token requests need neither.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';

const BASE = 'http://127.0.0.1:3000';
const TRUSTED_PROXY = '10.9.8.7';
const API_DIR = path.resolve(import.meta.dirname, '../app/api');
type Handler = ((request: Request, route: { params: Promise<unknown> }) => Promise<Response>) & {
  contract?: { isPublic?: boolean; method: string; path: string };
};
interface WriteRoute {
  name: string;
  handler: Handler;
  params: Record<string, unknown>;
  url: string;
}

let cookie = '';
let bearer = '';
const writes: WriteRoute[] = [];

function request(url: string, method: string, headers: Record<string, string>): Request {
  const hasBody = method !== 'DELETE';
  return new Request(`${BASE}${url}`, {
    method,
    headers: { host: '127.0.0.1:3000', ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(hasBody ? { body: '{}' } : {}),
  });
}

const routeContext = (value: Record<string, unknown>) => ({ params: Promise.resolve(value) });

async function call(route: WriteRoute, headers: Record<string, string>): Promise<Response> {
  return route.handler(request(route.url, route.handler.contract!.method, headers), routeContext(route.params));
}

async function expectCrossSiteRefusal(response: Response, name: string): Promise<void> {
  expect(response.status, name).toBe(403);
  expect(response.headers.get('content-type'), name).toContain('application/json');
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code, name).toBe('forbidden');
  expect(body.error.message, name).toBeTruthy();
}

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-same-origin-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  process.env.TRELLIS_SOCKET_ADDRESS_HEADER = '1';
  process.env.TRELLIS_TRUSTED_PROXIES = TRUSTED_PROXY;
  // Imported after the environment is set: the logger reads it on import.
  const { scanRouteFolders } = await import('./openapi/coverage');
  for (const folder of scanRouteFolders(API_DIR)) {
    if (folder.method === 'GET') continue;
    const module = (await import(folder.file)) as Record<string, Handler>;
    const handler = module[folder.method]!;
    if (handler.contract?.isPublic) continue;
    const params = Object.fromEntries(folder.params.map((name) => [name, name === 'k' ? '1' : `missing${name}`]));
    const url = folder.path.replace(/\{(\w+)\}/g, (_m, name: string) => String(params[name]));
    writes.push({ name: `${folder.method} ${folder.path}`, handler, params, url });
  }
  const auth = (await import('@/app/api/auth/[...all]/route')) as unknown as { POST: Handler };
  const email = `same-origin-${randomUUID()}@example.test`;
  const signUp = await auth.POST(
    new Request(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: BASE, host: '127.0.0.1:3000', 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery', name: 'Same Origin' }),
    }),
    routeContext({ all: ['sign-up', 'email'] }),
  );
  cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0]!;
  const tokens = (await import('@/app/api/tokens/route')) as unknown as { POST: Handler };
  const created = await tokens.POST(
    new Request(`${BASE}/api/tokens`, {
      method: 'POST',
      headers: { origin: BASE, host: '127.0.0.1:3000', 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'csrf test' }),
    }),
    routeContext({}),
  );
  expect(created.status).toBe(201);
  bearer = ((await created.json()) as { token: string }).token;
}, 120_000);

describe('same-origin guard on every write route', () => {
  it('found the write routes by walking the route folders', () => {
    expect(writes.length).toBeGreaterThanOrEqual(19);
    expect(writes.map((w) => w.name)).toEqual(expect.arrayContaining(['DELETE /api/tokens/{id}', 'POST /api/conversations/{id}/turns/{k}/regenerate']));
  });

  it('refuses a cookie request from another origin that claims its host in X-Forwarded-Host (no trusted proxy)', async () => {
    for (const route of writes) {
      await expectCrossSiteRefusal(
        await call(route, { cookie, origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', 'x-trellis-socket-address': '192.0.2.5' }),
        route.name,
      );
    }
  });

  it('refuses a cookie request that shows neither Origin nor Sec-Fetch-Site, body or not', async () => {
    for (const route of writes) await expectCrossSiteRefusal(await call(route, { cookie }), route.name);
  });

  it('refuses Sec-Fetch-Site other than same-origin, and Origin: null', async () => {
    for (const route of writes) {
      await expectCrossSiteRefusal(await call(route, { cookie, 'sec-fetch-site': 'same-site' }), route.name);
      await expectCrossSiteRefusal(await call(route, { cookie, origin: 'null' }), route.name);
    }
  });

  it('lets the same cookie request through with a same-origin Origin or Sec-Fetch-Site: same-origin', async () => {
    for (const route of writes) {
      const proofs: Record<string, string>[] = [{ cookie, origin: BASE }, { cookie, 'sec-fetch-site': 'same-origin' }];
      for (const headers of proofs) {
        const response = await call(route, headers);
        expect([401, 403], `${route.name} ${JSON.stringify(Object.keys(headers))}`).not.toContain(response.status);
      }
    }
  });

  it('lets a Bearer-token request through without Origin', async () => {
    for (const route of writes.filter((w) => !w.name.includes('/api/tokens'))) {
      const response = await call(route, { authorization: `Bearer ${bearer}` });
      expect([401, 403], route.name).not.toContain(response.status);
    }
  });

  it('believes X-Forwarded-Host only when the socket is a listed proxy', async () => {
    const route = writes.find((w) => w.name === 'POST /api/conversations')!;
    const forwarded = { cookie, origin: 'https://trellis.example', 'x-forwarded-host': 'trellis.example' };
    const viaProxy = await call(route, { ...forwarded, 'x-trellis-socket-address': TRUSTED_PROXY });
    expect(viaProxy.status, await viaProxy.clone().text()).toBe(201);
    await expectCrossSiteRefusal(await call(route, { ...forwarded, 'x-trellis-socket-address': '192.0.2.5' }), 'from a client socket');
    await expectCrossSiteRefusal(await call(route, forwarded), 'with no socket address');
  });
});
