// Every JSON route of the API, read from the generated OpenAPI document (so a new
// route is fuzzed without editing this file), gets hostile bodies and path
// parameters: NUL bytes, lone surrogates, nulls, arrays, huge numbers, 2 MB
// strings. Bad input must be a 4xx; no answer may be 500 or above. Runs on a
// server of its own, since it trips every rate limit on the way.
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { test, expect } from './support/test';
import fc from 'fast-check';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { startStudioServer, type StudioServer } from './support/studio-server';

const RUNS_PER_OPERATION = 12;
// A new seed for every commit (from its hash; random outside a git checkout), always printed and named in
// a failure: a run of one commit is reproducible, and TRELLIS_FUZZ_SEED=<seed> replays any run.
const SEED = Number(process.env.TRELLIS_FUZZ_SEED ?? commitSeed() ?? Math.floor(Math.random() * 2 ** 31));

function commitSeed(): number | null {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return Number.parseInt(head.slice(0, 7), 16);
  } catch {
    return null;
  }
}
/** The query every GET also gets with each hostile path segment: 4 × 4,000 characters. */
const LONG_QUERY_VALUE = 'y'.repeat(4000);
const TWO_MB = 'x'.repeat(2 * 1024 * 1024);
/** JSON.stringify cannot write numbers JSON.parse turns into Infinity or loses; the serialiser swaps these in. */
const RAW_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0'];

interface Operation {
  method: string;
  path: string;
  bodyKeys: string[] | null;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }
    >
  >;
}

/** The values that broke routes before: each is also sent on its own for every body field and path parameter. */
const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff',
  '',
  ' ',
  '\u202e',
  '%00',
  '../../etc/passwd',
];
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_STRINGS,
  TWO_MB,
  null,
  [],
  [null],
  {},
  true,
  -1,
  1e308,
  ...RAW_NUMBERS.map((n) => `__raw:${n}`),
];
const HOSTILE_BODIES: unknown[] = [null, [], [{}], 0, '__raw:1e400', 'text', TWO_MB, { '\u0000': 1 }];
const HOSTILE_SEGMENTS = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F',
  '%C0%AF',
  'null',
  'undefined',
  '-1',
  '0',
  '1e309',
  '99999999999999999999',
  'NaN',
  '..',
  '%2e%2e',
  '%2F',
  'th_',
  `th_${'0'.repeat(32)}`,
  `th_${'f'.repeat(31)}%00`,
  '00000000-0000-0000-0000-00000000000%00',
  'y'.repeat(4000),
];

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant(TWO_MB) },
);
const nastyNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.constantFrom(...RAW_NUMBERS.map((n) => `__raw:${n}`)),
);
const nastyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 2, arbitrary: nastyNumber },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        nastyString.filter((k) => k.length < 100),
        tie('value'),
        { maxKeys: 4 },
      ),
    },
  ),
})).value;

/** A body: an object with the schema's own keys set to hostile values, or a value of any shape. */
function bodyFor(keys: string[] | null): fc.Arbitrary<unknown> {
  if (!keys || keys.length === 0) return nastyValue;
  const shaped = fc.record(Object.fromEntries(keys.map((k) => [k, nastyValue])), { requiredKeys: [] });
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: nastyValue });
}

function serialise(body: unknown): string {
  return JSON.stringify(body).replace(/"__raw:([^"]+)"/g, '$1');
}

const nastySegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(s)),
  },
);

interface Case {
  params: string[];
  body: unknown;
  query?: [string, string];
}

/** Every hostile value alone in every field and parameter (the rest valid), then random mixes. */
function casesFor(operation: Operation, realParam: (name: string) => string, seed: number): Case[] {
  const params = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const valid = params.map(realParam);
  const hasBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  const cases: Case[] = [];
  params.forEach((_, i) => {
    for (const segment of HOSTILE_SEGMENTS)
      cases.push({ params: valid.map((v, j) => (j === i ? segment : v)), body: hasBody ? {} : undefined });
  });
  if (hasBody) {
    for (const body of HOSTILE_BODIES) cases.push({ params: valid, body });
    for (const key of operation.bodyKeys ?? [])
      for (const value of HOSTILE_VALUES) cases.push({ params: valid, body: { [key]: value } });
  }
  if (operation.method === 'GET') {
    for (const segment of HOSTILE_SEGMENTS)
      cases.push({ params: valid, body: undefined, query: [segment, segment] });
    // A segment the client or the server normalises away ('..', '') under a long query once made a
    // redirect echo the whole URL into its headers.
    params.forEach((_, i) => {
      for (const segment of HOSTILE_SEGMENTS)
        cases.push({
          params: valid.map((v, j) => (j === i ? segment : v)),
          body: undefined,
          query: [LONG_QUERY_VALUE, LONG_QUERY_VALUE],
        });
    });
  }
  const paramValue = (name: string) =>
    name === 'path'
      ? fc.oneof(
          fc.constantFrom('sign-in/email', 'sign-up/email', 'change-password', 'get-session'),
          nastySegment,
        )
      : fc.oneof(fc.constant(realParam(name)), nastySegment);
  const arbitrary = fc.record({
    params: fc.tuple(...params.map(paramValue)),
    body: hasBody ? bodyFor(operation.bodyKeys) : fc.constant(undefined),
    query:
      operation.method === 'GET'
        ? fc.option(fc.tuple(nastySegment, nastySegment), { nil: undefined })
        : fc.constant(undefined),
  });
  return [...cases, ...fc.sample(arbitrary, { numRuns: RUNS_PER_OPERATION, seed })];
}

test.describe('fuzzing every JSON route', () => {
  let server: StudioServer;
  let client: ApiClient;
  const real: Record<string, string> = {};

  test.beforeAll(async () => {
    server = await startStudioServer();
    client = new ApiClient(server.baseUrl);
    await client.signUp(uniqueEmail('fuzz'));
    const conversation = await client.json<{ thread_id: string }>(
      'POST',
      '/api/conversations',
      { title: 'fuzz target' },
      201,
    );
    real.id = conversation.thread_id;
    const sent = await client.request('POST', `/api/conversations/${real.id}/messages`, { content: 'hello' });
    await sent.text();
    real.pid = (
      await client.json<{ id: string }>(
        'POST',
        `/api/conversations/${real.id}/preferences`,
        { text: 'be brief' },
        201,
      )
    ).id;
    real.tid = (
      await client.json<{ id: string }>('POST', `/api/conversations/${real.id}/todos`, { text: 'check' }, 201)
    ).id;
    real.k = '1';
  });
  test.afterAll(async () => {
    await server?.stop();
    await server?.dispose();
  });

  test('answers a repeated or trailing slash with a redirect whose headers do not grow with the query', async () => {
    const long = `?q=${LONG_QUERY_VALUE}&cursor=${LONG_QUERY_VALUE}&before=${LONG_QUERY_VALUE}`;
    for (const path of [
      '/api/conversations/',
      '/api//conversations',
      '/c/x/',
      '/api/conversations/x/graph/',
    ]) {
      const tooLong = await rawGet(server.baseUrl, `${path}${long}`);
      expect(tooLong, path).toMatchObject({ status: 414, location: undefined });
      expect(tooLong.headerBytes, path).toBeLessThan(1024);
      expect(await rawGet(server.baseUrl, `${path}?q=1`), path).toMatchObject({
        status: 308,
        location: `${path.replace(/\/{2,}/g, '/').replace(/\/$/, '')}?q=1`,
      });
    }
  });

  test('answers no request with 500 or above', async () => {
    // Hundreds of requests, many carrying 2 MB: beside another worker on two cores this needs more
    // than the suite's two minutes.
    test.setTimeout(360_000);
    console.log(`fuzz seed ${SEED} (TRELLIS_FUZZ_SEED=${SEED} replays this run)`);
    const doc = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as OpenApiDoc;
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        return {
          method: method.toUpperCase(),
          path,
          bodyKeys: schema ? Object.keys(schema.properties ?? {}) : null,
        };
      }),
    );
    expect(operations.length).toBeGreaterThanOrEqual(20);
    // Deleting the target last keeps the other routes reaching their services.
    operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

    const failures: string[] = [];
    let sent = 0;
    let expected = 0;
    for (const [index, operation] of operations.entries()) {
      const realParam = (name: string) =>
        name === 'path'
          ? operation.method === 'GET'
            ? 'get-session'
            : 'sign-in/email'
          : name === 'pid' && operation.path.includes('/todos/')
            ? real.tid!
            : (real[name] ?? 'x');
      const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const cases = casesFor(operation, realParam, SEED + index);
      expected += cases.length;
      for (const sample of cases) {
        let url = operation.path;
        names.forEach((name, i) => (url = url.replace(`{${name}}`, sample.params[i]!)));
        if (sample.query)
          url += `?limit=${sample.query[0]}&cursor=${sample.query[1]}&before=${sample.query[1]}&q=${sample.query[0]}`;
        const body = sample.body === undefined ? undefined : serialise(sample.body);
        // Auth routes get a client of their own: a sign-up or sign-in there must not swap the fuzzing session.
        const requester = url.startsWith('/api/auth/') ? new ApiClient(server.baseUrl) : client;
        const response = await requester
          .request(operation.method, url, body)
          .catch((error: unknown) => error);
        sent++;
        if (!(response instanceof Response)) {
          // A response the client cannot read (e.g. headers past its size limit) is a finding, not a crash.
          failures.push(
            `${operation.method} ${url.slice(0, 120)} (${url.length} chars) body=${(body ?? '').slice(0, 120)} → fetch error ${describeFetchError(response)}`,
          );
        } else if (response.status >= 500) {
          const text = (await response.text()).slice(0, 200);
          failures.push(
            `${operation.method} ${url.slice(0, 120)} body=${(body ?? '').slice(0, 120)} → ${response.status} ${text}`,
          );
        } else {
          await response.body?.cancel();
        }
      }
    }
    console.log(JSON.stringify({ fuzz: { operations: operations.length, requests: sent, seed: SEED } }));
    expect(sent).toBe(expected);
    expect(failures, `seed ${SEED}: TRELLIS_FUZZ_SEED=${SEED} replays it`).toEqual([]);
  });
});

/** undici wraps the reason (e.g. UND_ERR_HEADERS_OVERFLOW) in `cause`. */
function describeFetchError(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return [message, cause?.code, cause?.message].filter(Boolean).join(': ');
}

/** A GET whose response headers are measured, not refused: Node's client reads up to 1 MB of them. */
function rawGet(
  baseUrl: string,
  path: string,
): Promise<{ status: number; location: string | undefined; headerBytes: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${path}`,
      { method: 'GET', maxHeaderSize: 1 << 20 },
      (response) => {
        response.resume();
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location,
          headerBytes: response.rawHeaders.reduce((sum, part) => sum + part.length + 2, 0),
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}
