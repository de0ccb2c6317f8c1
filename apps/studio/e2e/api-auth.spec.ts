import { test, expect } from './support/test';
import { ApiClient } from './support/api-client';
import { isPublicRoute, listApiRoutes } from './support/routes';
import { uniqueEmail } from './support/browser';

/** This worker's studio (see support/test.ts). */
let baseUrl = '';
test.beforeAll(({ studio }) => {
  baseUrl = studio.baseUrl;
});

test.describe('API authentication', () => {
  test('answers 401 with a JSON error on every non-public route without credentials', async () => {
    const routes = listApiRoutes().filter((r) => !isPublicRoute(r));
    expect(routes.length).toBeGreaterThanOrEqual(3);
    for (const route of routes) {
      const response = await fetch(`${baseUrl}${route.path}`, {
        method: route.method,
        headers:
          route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' },
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
      });
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code, `${route.method} ${route.path}`).toBe('unauthenticated');
    }
  });

  test('health is public', async () => {
    const response = await fetch(`${baseUrl}/api/health`);
    const health = (await response.json()) as Record<string, unknown>;
    expect(health).toMatchObject({ ok: true, database: true, checkpointer: true });
    expect(health).toHaveProperty('event_loop_delay');
  });

  test('a personal token works for a GET and is refused after revocation', async () => {
    const browser = new ApiClient(baseUrl);
    await browser.signUp(uniqueEmail('token'));
    const created = await browser.json<{ id: string; name: string; token: string }>(
      'POST',
      '/api/tokens',
      { name: 'cli' },
      201,
    );
    expect(created.name).toBe('cli');
    expect(created.token).toMatch(/^trl_/);

    const listed = await browser.json<{ tokens: { id: string; name: string }[] }>('GET', '/api/tokens');
    expect(listed.tokens.map((t) => t.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const rest = new ApiClient(baseUrl).withToken(created.token);
    expect((await rest.request('GET', '/api/conversations')).status).toBe(200);
    expect((await browser.request('DELETE', `/api/tokens/${created.id}`)).status).toBe(204);
    const refused = await rest.request('GET', '/api/conversations');
    expect(refused.status).toBe(401);
  });

  test('refuses a cross-site text/plain POST that carries a valid session cookie', async () => {
    const browser = new ApiClient(baseUrl);
    await browser.signUp(uniqueEmail('csrf'));
    const response = await browser.request('POST', '/api/tokens', '{"name":"evil"}', {
      'content-type': 'text/plain',
      origin: 'http://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(response.status).toBe(403);
    const listed = await browser.json<{ tokens: unknown[] }>('GET', '/api/tokens');
    expect(listed.tokens).toEqual([]);
  });

  test('refuses a same-origin cookie POST that is not JSON with 415', async () => {
    const browser = new ApiClient(baseUrl);
    await browser.signUp(uniqueEmail('json'));
    const response = await browser.request('POST', '/api/tokens', '{"name":"x"}', {
      'content-type': 'text/plain',
    });
    expect(response.status).toBe(415);
  });

  test('answers 422 with field details for an invalid body and 400 for malformed JSON', async () => {
    const browser = new ApiClient(baseUrl);
    await browser.signUp(uniqueEmail('valid'));
    const invalid = await browser.request('POST', '/api/tokens', { name: '' });
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as {
      error: { code: string; details: { issues: { path: string }[] } };
    };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.issues[0]?.path).toBe('name');
    const malformed = await browser.request('POST', '/api/tokens', '{not json');
    expect(malformed.status).toBe(400);
  });
});

test.describe('API description', () => {
  test('the OpenAPI 3.1 document describes every route file of the studio, and /api/docs renders it', async () => {
    const doc = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const described = new Set(
      Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
      ),
    );
    // The JSON 404 of unknown paths is a fallback, not an operation: it is left out of the document.
    for (const route of listApiRoutes().filter((r) => r.template !== '/api/{unknown}')) {
      expect(described.has(`${route.method} ${route.template}`), `${route.method} ${route.template}`).toBe(
        true,
      );
    }
    expect(described.has('GET /api/{unknown}')).toBe(false);
    const html = await (await fetch(`${baseUrl}/api/docs`)).text();
    expect(html).toContain('/api/conversations/{id}/branch');
  });
});
