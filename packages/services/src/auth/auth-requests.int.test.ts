import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@trellis/domain';
import { createTestDeps, type TestDeps } from '../testing/test-harness';
import { createApiToken, listApiTokens, verifyApiToken } from '../tokens/api-tokens';
import { authenticate } from './authenticate';
import { createAuth, type Auth } from './create-auth';
import { handleAuthRequest } from './handle-auth-request';

const BASE = 'http://localhost:3999';
const PASSWORD = 'correct horse battery';

let deps: TestDeps;
let auth: Auth;

beforeAll(() => {
  deps = createTestDeps();
  auth = createAuth({ db: deps.db, secret: 'x'.repeat(32), baseUrl: BASE, trustedOrigins: [BASE] });
});
afterAll(() => deps.close());

const email = () => `u-${randomBytes(5).toString('hex')}@example.test`;
const address = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

async function call(path: string, body: unknown, from: string, cookie?: string): Promise<{ status: number; cookie: string; code?: string }> {
  const request = new Request(`${BASE}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE, 'x-forwarded-for': '203.0.113.1', ...(cookie ? { cookie } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  try {
    const response = await handleAuthRequest({ db: deps.db, auth }, request, from);
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    return { status: response.status, cookie: cookies };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { status: error.code === 'rate_limited' ? 429 : error.code === 'bad_request' ? 400 : 422, cookie: '', code: error.code };
  }
}

const sessionOf = async (cookie: string) => auth.api.getSession({ headers: new Headers({ cookie }) });

describe('auth requests', () => {
  it('limits sign-in per (address, email): the owner still signs in from another address', async () => {
    const owner = email();
    expect((await call('/sign-up/email', { email: owner, password: PASSWORD, name: 'O' }, address())).status).toBe(200);
    const attacker = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('/sign-in/email', { email: owner, password: 'wrong!!!' }, attacker)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    expect((await call('/sign-in/email', { email: owner, password: PASSWORD }, '192.0.2.78')).status).toBe(200);
  });

  it('limits sign-in per address over every account, in better-auth on the Postgres counters', async () => {
    const from = '192.0.2.90';
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await call('/sign-in/email', { email: email(), password: 'wrong!!!' }, from)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('answers 400 for bodies that are not objects', async () => {
    for (const body of ['null', '[1]', '7']) expect((await call('/sign-in/email', body, address())).status).toBe(400);
  });

  it('a password change ends the other sessions and every API token', async () => {
    const user = email();
    const first = await call('/sign-up/email', { email: user, password: PASSWORD, name: 'P' }, address());
    const second = await call('/sign-in/email', { email: user, password: PASSWORD }, address());
    const session = await sessionOf(first.cookie);
    const actor = { userId: session!.user.id, via: 'session' as const };
    const { token } = await createApiToken(deps.db, actor, 'ci', address());
    expect(await verifyApiToken(deps.db, token)).toBe(actor.userId);

    const changed = await call('/change-password', { currentPassword: PASSWORD, newPassword: 'another long one', revokeOtherSessions: false }, address(), first.cookie);
    expect(changed.status).toBe(200);
    expect(await sessionOf(second.cookie)).toBeNull();
    expect(await verifyApiToken(deps.db, token)).toBeNull();
    expect(await sessionOf(changed.cookie)).not.toBeNull();
  });

  it('a token can neither create nor list tokens', async () => {
    const user = email();
    const signed = await call('/sign-up/email', { email: user, password: PASSWORD, name: 'T' }, address());
    const session = await sessionOf(signed.cookie);
    const { token } = await createApiToken(deps.db, { userId: session!.user.id, via: 'session' }, 'cli', address());
    const viaToken = await authenticate({ db: deps.db, auth }, { method: 'GET', headers: new Headers({ authorization: `Bearer ${token}` }), hasBody: false, sameOrigin: { trustsForwardedHost: false, allowedOrigins: [] } });
    await expect(createApiToken(deps.db, viaToken, 'child', address())).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listApiTokens(deps.db, viaToken)).rejects.toMatchObject({ code: 'forbidden' });
  });
});
