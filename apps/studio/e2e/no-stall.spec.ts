// No request stalls the studio: against a production server (its own process and database), what
// used to run on the request thread — a stale save's three-way merge of a 1 MB document, ten at once,
// a family zip of 60 paths of 1 MB, a Word export of a document at the size limit — is answered
// while /api/health answers every poll meanwhile, and a stop signal ends the process within its
// grace period even with a request stuck in it. Every integer parameter of the OpenAPI document
// answers 4xx to 2^31 and 2^53 (generated from the document). How long health took and how much the
// zip held are figures, not assertions: `npm run bench` measures them
// (health.max_ms_during_stale_merge_1mb, export.family_zip_rss_mb_60_paths), and each test here
// records what it saw as an annotation; the Word export's test compares its longest poll with the
// export's own time in the same run.
import { connect } from 'node:net';
import { strFromU8, unzipSync } from 'fflate';
import { MAX_DOCUMENT_CHARS } from '@trellis/domain';
import { test, expect } from './support/test';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { exited, startStudioServer, type StudioServer } from './support/studio-server';
import {
  conversationWithDocument,
  drain,
  editParagraph,
  healthDuring,
  longDocument,
  peakRssDuring,
  rssMb,
} from './support/no-stall';

const MB = 1_000_000;

/** What a test saw, as an annotation of the test (the report shows it): figures, never asserted. */
function note(what: string, figures: { seconds?: number; rss_growth_mb?: number; health: { p99: number; max: number; ms: number[] } }): void {
  const { health, ...rest } = figures;
  test.info().annotations.push({
    type: what,
    description: JSON.stringify({ ...rest, health_p99_ms: Math.round(health.p99), health_max_ms: Math.round(health.max), health_polls: health.ms.length }),
  });
}

test.describe('a production server under heavy requests', () => {
  test.describe.configure({ mode: 'serial', timeout: 600_000 });
  let server: StudioServer;
  let client: ApiClient;

  test.beforeAll(async () => {
    server = await startStudioServer();
    client = new ApiClient(server.baseUrl);
    await client.signUp(uniqueEmail('no-stall'));
  });
  test.afterAll(async () => {
    await server?.stop();
    await server?.dispose();
  });

  test('a stale save of a 1 MB document is merged while health answers every poll; ten at once the same', async () => {
    const base = longDocument(MB);
    const { id, version } = await conversationWithDocument(client, base);
    // Another tab (or the agent) saved first: paragraph 10 edited.
    const theirs = editParagraph(base, 10, 'THEIRS');
    await client.json('PATCH', `/api/conversations/${id}/workspace`, { document: { content: theirs, base_version: version } });
    const save = (content: string) =>
      client.request('PATCH', `/api/conversations/${id}/workspace`, { document: { content, base_version: version } });

    const one = await healthDuring(server.baseUrl, async () => {
      const started = performance.now();
      const response = await save(editParagraph(base, 3000, 'MINE'));
      const body = (await response.json()) as { document?: { content: string } };
      return { status: response.status, seconds: (performance.now() - started) / 1000, body };
    });
    expect(one.result.status).toBe(200);
    expect(one.result.body.document?.content).toContain('P10 THEIRS ');
    expect(one.result.body.document?.content).toContain('P3000 MINE ');
    expect(one.health.errors).toBe(0);
    note('one stale save', { seconds: one.result.seconds, health: one.health });

    const ten = await healthDuring(server.baseUrl, () =>
      Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const started = performance.now();
          const { status } = await drain(await save(editParagraph(base, 100 + i * 200, `TAB${i}`)));
          return { status, seconds: (performance.now() - started) / 1000 };
        }),
      ),
    );
    for (const answer of ten.result) {
      // Each is merged onto whatever the others saved first (200), or refused with the current text (409).
      expect([200, 409]).toContain(answer.status);
    }
    expect(ten.result.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(ten.health.errors).toBe(0);
    note('ten stale saves at once', { seconds: Math.max(...ten.result.map((a) => a.seconds)), health: ten.health });
  });

  test('a stale save that rewrote every paragraph of 1 MB is a 409 “too many overlapping changes” with the current text', async () => {
    const base = longDocument(MB);
    const { id, version } = await conversationWithDocument(client, base);
    const theirs = base.replace(/^P(\d+) /gm, 'P$1 THEIRS ');
    await client.json('PATCH', `/api/conversations/${id}/workspace`, { document: { content: theirs, base_version: version } });
    const { result, health } = await healthDuring(server.baseUrl, async () => {
      const started = performance.now();
      const response = await client.request('PATCH', `/api/conversations/${id}/workspace`, {
        document: { content: base.replace(/^P(\d+) /gm, 'P$1 MINE '), base_version: version },
      });
      const body = (await response.json()) as { error: { code: string; message: string; details: { document: { content: string } } } };
      return { status: response.status, body, seconds: (performance.now() - started) / 1000 };
    });
    expect(result.status).toBe(409);
    expect(result.body.error.message).toContain('too many overlapping changes to merge automatically');
    expect(result.body.error.details.document.content).toBe(theirs);
    expect(health.errors).toBe(0);
    note('an unmergeable stale save', { seconds: result.seconds, health });
  });

  test('a 400,000-character CJK document saves (the body limit follows the document limit); past the limit the 413 says it in characters', async () => {
    const { thread_id: id } = await client.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'CJK' }, 201);
    const cjk = '漢字かな交じり文。'.repeat(400_000 / 9 + 1).slice(0, 400_000);
    const saved = await client.json<{ document: { content: string } }>('PATCH', `/api/conversations/${id}/workspace`, { document: { content: cjk } });
    expect(saved.document.content.length).toBe(400_000);
    const tooLarge = await client.request('PATCH', `/api/conversations/${id}/workspace`, { document: { content: '漢'.repeat(2_100_000) } });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { message: string } }).error.message).toContain('2,000,000 characters');
  });

  test('a family zip of 60 paths × 1 MB streams while health answers every poll', async () => {
    const { id } = await conversationWithDocument(client, longDocument(MB));
    for (let i = 0; i < 59; i++) await client.json('POST', `/api/conversations/${id}/branch`, { from_turn: 0, reason: `path ${i}` }, 201);
    const pid = server.child.pid!;
    // A settled baseline: the branches' requests are done and their garbage had time to go.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = rssMb(pid);
    const { result, health } = await healthDuring(server.baseUrl, () =>
      peakRssDuring(pid, async () => drain(await client.request('GET', `/api/conversations/${id}/export?scope=family`))),
    );
    expect(result.result.status).toBe(200);
    expect(result.result.bytes).toBeGreaterThan(0);
    expect(health.errors).toBe(0);
    note('family zip', { rss_growth_mb: result.peakMb - before, health });
  });

  test('a Word export of a document at the size limit streams while health answers every poll', async () => {
    // Plain ASCII prose: characters are bytes, and the document stays within the limit.
    const content = longDocument(MAX_DOCUMENT_CHARS - 1_000);
    const { id } = await conversationWithDocument(client, content);
    const { result, health } = await healthDuring(server.baseUrl, async () => {
      const started = performance.now();
      const response = await client.request('GET', `/api/conversations/${id}/export?format=docx&part=document`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, type: response.headers.get('content-type'), bytes, seconds: (performance.now() - started) / 1000 };
    });
    expect(result.status).toBe(200);
    expect(result.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const document = strFromU8(unzipSync(result.bytes)['word/document.xml']!);
    expect(document).toContain(`>${content.match(/^P\d+ /gm)!.at(-1)}`);
    expect(health.errors).toBe(0);
    // Written on the request thread, the export held every poll for nearly all of its time; in the
    // worker the longest poll is a small part of it (compared in the same run, not in milliseconds).
    expect(health.ms.length).toBeGreaterThan(10);
    expect(health.max).toBeLessThan((result.seconds * 1000) / 4);
    note('Word export at the size limit', { seconds: result.seconds, health });
  });

  test('every integer parameter of the OpenAPI document answers 4xx to 2^31 and 2^53', async () => {
    const { thread_id: id } = await client.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'Integers' }, 201);
    const doc = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as OpenApiDocument;
    const cases = integerParameterCases(doc, id);
    expect(cases.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const c of cases) {
      for (const value of ['2147483648', '9007199254740992']) {
        const response = await client.request(c.method.toUpperCase(), c.url(value), c.hasBody ? {} : undefined);
        await response.arrayBuffer();
        if (response.status < 400 || response.status >= 500) failures.push(`${c.method.toUpperCase()} ${c.url(value)} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

test.describe('a stop signal with a request stuck in the process', () => {
  test('exits within the grace period', async () => {
    test.setTimeout(180_000);
    const graceSeconds = 4;
    const server = await startStudioServer({ env: { TRELLIS_SHUTDOWN_GRACE_SECONDS: String(graceSeconds) } });
    try {
      const client = new ApiClient(server.baseUrl);
      await client.signUp(uniqueEmail('stuck'));
      const { thread_id: id } = await client.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'Stuck' }, 201);
      // An event stream that stays open, and a body that never finishes arriving.
      const events = await client.request('GET', `/api/conversations/${id}/events`);
      expect(events.status).toBe(200);
      const url = new URL(server.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write(
          `PATCH /api/conversations/${id}/workspace HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"document":{"content":"`,
        ),
      );
      socket.on('error', () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exit = exited(server.child);
      const started = performance.now();
      server.child.kill('SIGTERM');
      await exit;
      const seconds = (performance.now() - started) / 1000;
      socket.destroy();
      expect(seconds).toBeLessThanOrEqual(graceSeconds + 1);
    } finally {
      server.child.kill('SIGKILL');
      await server.dispose();
    }
  });
});

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: { type?: string; enum?: unknown[]; default?: unknown };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: unknown }>>;
}

/** One request per (operation, integer parameter): the parameter takes the hostile value, every other a plausible one. */
function integerParameterCases(doc: OpenApiDocument, threadId: string): { method: string; hasBody: boolean; url: (value: string) => string }[] {
  const cases: { method: string; hasBody: boolean; url: (value: string) => string }[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = (operation.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      for (const target of parameters.filter((p) => p.schema?.type === 'integer')) {
        cases.push({
          method,
          hasBody: operation.requestBody !== undefined,
          url: (value) => {
            const plausible = (p: OpenApiParameter): string =>
              p === target ? value : p.schema?.type === 'integer' ? '1' : p.schema?.enum ? String(p.schema.enum[0]) : p.name === 'id' ? threadId : `${threadId}:1`;
            let path = template;
            for (const p of parameters.filter((q) => q.in === 'path')) path = path.replace(`{${p.name}}`, encodeURIComponent(plausible(p)));
            const query = parameters.filter((p) => p.in === 'query' && (p === target || p.required)).map((p) => `${p.name}=${encodeURIComponent(plausible(p))}`);
            return query.length > 0 ? `${path}?${query.join('&')}` : path;
          },
        });
      }
    }
  }
  return cases;
}
