// Sessions and tokens end when they should, auth bodies are checked, and every
// response carries the security headers without the CSP breaking a studio page.
import { test, expect } from './support/test';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { writeFromPage } from './support/same-origin';

/** This worker's studio (see support/test.ts). */
let baseUrl = '';
test.beforeAll(({ studio }) => {
  baseUrl = studio.baseUrl;
});

const PASSWORD = 'correct horse battery';

test.describe('sessions and tokens', () => {
  test('a password change ends the other sessions and every API token, and keeps the changing session', async () => {
    const email = uniqueEmail('rotate');
    const first = new ApiClient(baseUrl);
    await first.signUp(email, PASSWORD);
    const second = new ApiClient(baseUrl);
    expect(
      (await second.request('POST', '/api/auth/sign-in/email', { email, password: PASSWORD })).status,
    ).toBe(200);
    const { token } = await first.json<{ token: string }>('POST', '/api/tokens', { name: 'laptop' }, 201);
    const bearer = new ApiClient(baseUrl).withToken(token);
    expect((await bearer.request('GET', '/api/conversations')).status).toBe(200);
    expect((await second.request('GET', '/api/conversations')).status).toBe(200);

    // Even when the client asks to keep its other sessions.
    const changed = await first.request('POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
      revokeOtherSessions: false,
    });
    expect(changed.status).toBe(200);

    expect((await second.request('GET', '/api/conversations')).status).toBe(401);
    expect((await bearer.request('GET', '/api/conversations')).status).toBe(401);
    expect((await first.request('GET', '/api/conversations')).status).toBe(200);
    expect((await first.json<{ tokens: unknown[] }>('GET', '/api/tokens')).tokens).toEqual([]);
  });

  test('a token can neither create nor list tokens (403); the cookie session can', async () => {
    const browser = new ApiClient(baseUrl);
    await browser.signUp(uniqueEmail('mint'), PASSWORD);
    const { token } = await browser.json<{ token: string }>('POST', '/api/tokens', { name: 'cli' }, 201);
    const bearer = new ApiClient(baseUrl).withToken(token);
    const minted = await bearer.request('POST', '/api/tokens', { name: 'child' });
    expect(minted.status).toBe(403);
    expect((await bearer.request('GET', '/api/tokens')).status).toBe(403);
    expect(
      (await browser.json<{ tokens: { name: string }[] }>('GET', '/api/tokens')).tokens.map((t) => t.name),
    ).toEqual(['cli']);
  });

  test('auth bodies that are not JSON objects answer 400, unstorable text 422', async () => {
    const client = new ApiClient(baseUrl);
    for (const body of ['null', '[]', '1', '"x"', 'true', '{nope']) {
      const response = await client.request('POST', '/api/auth/sign-in/email', body);
      expect(response.status, body).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    }
    const nul = await client.request('POST', '/api/auth/sign-up/email', {
      email: uniqueEmail('nul'),
      password: PASSWORD,
      name: 'a\u0000b',
    });
    expect(nul.status).toBe(422);
    expect(((await nul.json()) as { error: { message: string } }).error.message).toBe(
      'name contains a NUL character',
    );
  });
});

test.describe('security headers', () => {
  test('every response carries CSP, nosniff and Referrer-Policy; API JSON is no-store', async () => {
    const client = new ApiClient(baseUrl);
    await client.signUp(uniqueEmail('headers'), PASSWORD);
    const responses = {
      page: await client.request('GET', '/sign-in'),
      api: await client.request('GET', '/api/conversations'),
      error: await client.request('DELETE', '/api/tokens/not-a-token-id'),
      auth: await client.request('GET', '/api/auth/get-session'),
      health: await fetch(`${baseUrl}/api/health`),
    };
    for (const [name, response] of Object.entries(responses)) {
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, name).toContain("frame-ancestors 'none'");
      expect(csp, name).toContain("default-src 'self'");
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), name).toBe('strict-origin-when-cross-origin');
    }
    for (const name of ['api', 'auth', 'health'] as const) {
      expect(responses[name].headers.get('cache-control'), name).toContain('no-store');
    }
  });

  test('a path that is not percent-encoded UTF-8 answers 400, not 500', async () => {
    for (const bad of ['%F0%9F', '%ED%A0%80', '%C0%AF']) {
      const response = await fetch(`${baseUrl}/api/conversations/${bad}/graph`);
      expect(response.status, bad).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    }
  });

  test.describe('in Chromium', () => {
    test('the studio pages raise no Content-Security-Policy violation', async ({ page }) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/content security policy|refused to (load|execute|apply)/i.test(message.text()))
          violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`Refused to load: CSP ${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      await page.goto('/sign-up');
      await page.getByLabel('Name').fill('CSP User');
      await page.getByLabel('Email').fill(uniqueEmail('csp'));
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByTestId('studio').waitFor();
      const created = await writeFromPage(page, 'POST', '/api/conversations', { title: 'CSP check' });
      expect(created.status()).toBe(201);
      const { thread_id } = (await created.json()) as { thread_id: string };
      await page.goto(`/c/${thread_id}`);
      await page.getByTestId('studio').waitFor();
      await page.goto('/import');
      await page.goto('/api/docs');
      await page.waitForLoadState('load');
      expect(violations).toEqual([]);
    });
  });
});
