// Rate limits keyed on the client address the server resolves (the socket, or a
// trusted proxy's forwarded hop), never on a header the client chooses. Each
// server here is our own, so the counters start empty and other specs are unhurt.
import { request as httpRequest } from 'node:http';
import { test, expect } from './support/test';
import { uniqueEmail } from './support/browser';
import { startStudioServer, type StudioServer } from './support/studio-server';

const PASSWORD = 'correct horse battery';

interface Reply {
  status: number;
  cookie: string;
  body: string;
}

/** One JSON POST, sent from a chosen loopback source address (127.0.0.0/8 is all local). */
function post(
  server: StudioServer,
  path: string,
  body: unknown,
  o: { from?: string; headers?: Record<string, string>; cookie?: string } = {},
): Promise<Reply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        localAddress: o.from ?? '127.0.0.1',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          origin: server.baseUrl,
          ...(o.cookie ? { cookie: o.cookie } : {}),
          ...o.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cookie: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; '),
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const signUp = (s: StudioServer, email: string, from?: string) =>
  post(s, '/api/auth/sign-up/email', { email, password: PASSWORD, name: 'Owner' }, { from });
const signIn = (
  s: StudioServer,
  email: string,
  password: string,
  o: { from?: string; forwardedFor?: string } = {},
) =>
  post(
    s,
    '/api/auth/sign-in/email',
    { email, password },
    { from: o.from, headers: o.forwardedFor ? { 'x-forwarded-for': o.forwardedFor } : {} },
  );

test.describe('rate limits without a trusted proxy', () => {
  let server: StudioServer;
  test.beforeAll(async () => {
    server = await startStudioServer();
  });
  test.afterAll(async () => {
    await server?.stop();
    await server?.dispose();
  });

  test('rotating X-Forwarded-For still meets 429, and the owner signs in from another address meanwhile', async () => {
    const email = uniqueEmail('owner');
    expect((await signUp(server, email, '127.0.0.9')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await signIn(server, email, 'wrong password', { forwardedFor: `203.0.113.${i + 1}` })).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);

    const limited = await signIn(server, email, PASSWORD, { forwardedFor: '198.51.100.7' });
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toMatchObject({ error: { code: 'rate_limited' } });

    const owner = await signIn(server, email, PASSWORD, { from: '127.0.0.2' });
    expect(owner.status).toBe(200);
    expect(owner.cookie).toContain('session_token');
  });

  test('limits one address over every account (sign-in and sign-up)', async () => {
    const signIns: number[] = [];
    for (let i = 0; i < 22; i++)
      signIns.push(
        (await signIn(server, uniqueEmail(`spray${i}`), 'wrong password', { from: '127.0.0.3' })).status,
      );
    expect(signIns.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(signIns.slice(20)).toEqual([429, 429]);

    const signUps: number[] = [];
    for (let i = 0; i < 22; i++)
      signUps.push((await signUp(server, uniqueEmail(`farm${i}`), '127.0.0.4')).status);
    expect(signUps.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(signUps.slice(20)).toEqual([429, 429]);
    // Another address is not affected.
    expect((await signUp(server, uniqueEmail('neighbour'), '127.0.0.5')).status).toBe(200);
  });

  test('limits token creation per address over every account', async () => {
    const cookies = [];
    for (const tag of ['tok-a', 'tok-b'])
      cookies.push((await signUp(server, uniqueEmail(tag), '127.0.0.6')).cookie);
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      statuses.push(
        (await post(server, '/api/tokens', { name: `t${i}` }, { from: '127.0.0.6', cookie: cookies[i % 2] }))
          .status,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
  });
});

test.describe('rate limits behind a trusted proxy', () => {
  let server: StudioServer;
  test.beforeAll(async () => {
    server = await startStudioServer({ env: { TRELLIS_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.2' } });
  });
  test.afterAll(async () => {
    await server?.stop();
    await server?.dispose();
  });

  test('keys sign-in on the forwarded address (the right-most hop that is not a trusted proxy)', async () => {
    const email = uniqueEmail('proxied');
    expect((await signUp(server, email)).status).toBe(200);
    const rotating: number[] = [];
    for (let i = 0; i < 12; i++)
      rotating.push(
        (await signIn(server, email, 'wrong password', { forwardedFor: `203.0.113.${i + 1}` })).status,
      );
    expect(rotating).toEqual(Array(12).fill(401));

    // The client-written left part of the chain does not count; 198.51.100.7 is the client.
    const fixed: number[] = [];
    for (let i = 0; i < 11; i++) {
      fixed.push(
        (
          await signIn(server, email, 'wrong password', {
            forwardedFor: `192.0.2.${i + 1}, 198.51.100.7, 10.0.0.2`,
          })
        ).status,
      );
    }
    expect(fixed.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(fixed[10]).toBe(429);

    expect((await signIn(server, email, PASSWORD, { forwardedFor: '198.51.100.8' })).status).toBe(200);
  });

  test('a socket that is not a trusted proxy is keyed on itself, whatever it forwards', async () => {
    const email = uniqueEmail('direct');
    expect((await signUp(server, email, '127.0.0.7')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await signIn(server, email, 'wrong password', {
            from: '127.0.0.7',
            forwardedFor: `203.0.113.${i + 1}`,
          })
        ).status,
      );
    }
    expect(statuses[10]).toBe(429);
  });
});
