import { unzipSync, strFromU8 } from 'fflate';
import { test, expect } from './support/test';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';

/** This worker's studio (see support/test.ts). */
let baseUrl = '';
test.beforeAll(({ studio }) => {
  baseUrl = studio.baseUrl;
});

// Curation over HTTP (docs/branching.md, "Export"): the Markdown and zip exports and the graph
// exports as a REST client sees their headers, the archived filter of the list, and the PATCH
// contract for stars and archive.

interface Conversation {
  thread_id: string;
  title: string;
  starred: boolean;
  archived: boolean;
}

async function signedIn(tag: string): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  await client.signUp(uniqueEmail(tag));
  return client;
}

async function create(client: ApiClient, title: string): Promise<string> {
  return (await client.json<Conversation>('POST', '/api/conversations', { title }, 201)).thread_id;
}

async function send(client: ApiClient, threadId: string, content: string): Promise<void> {
  const response = await client.request('POST', `/api/conversations/${threadId}/messages`, { content });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('event: done');
}

async function branch(client: ApiClient, threadId: string, fromTurn: number): Promise<string> {
  return (
    await client.json<{ thread_id: string }>(
      'POST',
      `/api/conversations/${threadId}/branch`,
      { from_turn: fromTurn },
      201,
    )
  ).thread_id;
}

async function listed(client: ApiClient, query = ''): Promise<Conversation[]> {
  return (await client.json<{ conversations: Conversation[] }>('GET', `/api/conversations${query}`))
    .conversations;
}

/** Every `charset=` parameter of a content type (a response must carry exactly one). */
function charsets(contentType: string | null): string[] {
  return [...(contentType ?? '').matchAll(/charset=([^;\s]+)/gi)].map((match) => match[1]!.toLowerCase());
}

/**
 * The file name a client takes from `Content-Disposition`: RFC 6266 prefers `filename*` (an RFC
 * 8187 ext-value: charset'language'percent-encoded attr-chars) over the quoted `filename`.
 */
function parseDisposition(header: string | null): { type: string; filename: string; fallback: string } {
  const [type = '', ...params] = (header ?? '').split(/;\s*/);
  const values = new Map(
    params.map((param) => [param.slice(0, param.indexOf('=')), param.slice(param.indexOf('=') + 1)]),
  );
  const fallback = /^"([^"]*)"$/.exec(values.get('filename') ?? '')?.[1];
  const extended = /^UTF-8''((?:%[0-9A-F]{2}|[A-Za-z0-9!#$&+\-.^_`|~])*)$/i.exec(
    values.get('filename*') ?? '',
  );
  if (fallback === undefined) throw new Error(`no quoted filename in ${header}`);
  if (extended === null) throw new Error(`no RFC 8187 filename* in ${header}`);
  return { type, filename: decodeURIComponent(extended[1]!), fallback };
}

test.describe('exports over HTTP', () => {
  test('the path export answers text/markdown with one charset, as an attachment named "<title>.md"', async () => {
    const client = await signedIn('export-md');
    const threadId = await create(client, 'Bee guide');
    await send(client, threadId, 'todo: Count the bees');
    const response = await client.request('GET', `/api/conversations/${threadId}/export?format=markdown`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(charsets(response.headers.get('content-type'))).toEqual(['utf-8']);
    const disposition = response.headers.get('content-disposition');
    expect(disposition).toMatch(/^attachment; filename="Bee guide\.md"/);
    expect(parseDisposition(disposition)).toEqual({
      type: 'attachment',
      filename: 'Bee guide.md',
      fallback: 'Bee guide.md',
    });
    expect(await response.text()).toContain('todo: Count the bees');
  });

  test('a title with quotes, an apostrophe and non-ASCII letters keeps its exact name in filename* and an ASCII one in filename', async () => {
    const client = await signedIn('export-name');
    const title = 'Ève\'s "bee" notes (蜂)';
    const threadId = await create(client, title);
    await send(client, threadId, 'hello');
    const response = await client.request('GET', `/api/conversations/${threadId}/export?format=markdown`);
    expect(response.status).toBe(200);
    const { type, filename, fallback } = parseDisposition(response.headers.get('content-disposition'));
    expect(type).toBe('attachment');
    // The double quotes would end the quoted name: the file name drops them, nothing else.
    expect(filename).toBe("Ève's bee notes (蜂).md");
    expect(fallback).toMatch(/^[\x20-\x7e]+\.md$/);
    expect(fallback).toBe("_ve's bee notes (_).md");
  });

  test('scope=family answers a zip with one Markdown file per path and the family graph as Mermaid; an archived path is left out', async () => {
    const client = await signedIn('export-zip');
    const root = await create(client, 'Bee guide');
    await send(client, root, 'Let us write about bees');
    await send(client, root, 'todo: Observe swarming');
    const wasps = await branch(client, root, 1);
    await send(client, wasps, 'Focus on wasps instead');
    const moths = await branch(client, root, 1);
    await send(client, moths, 'Moths at night');

    const response = await client.request(
      'GET',
      `/api/conversations/${root}/export?format=markdown&scope=family`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(parseDisposition(response.headers.get('content-disposition')).filename).toBe(
      'Bee guide family.zip',
    );
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names).toEqual([
      'Bee guide.md',
      'Focus on wasps instead.md',
      'Moths at night.md',
      'family-graph.mmd',
    ]);
    const text = (name: string) => strFromU8(files[name]!);
    expect(text('Bee guide.md')).toContain('todo: Observe swarming');
    expect(text('Focus on wasps instead.md')).toContain('Focus on wasps instead');
    expect(text('Focus on wasps instead.md')).not.toContain('todo: Observe swarming');
    expect(text('Moths at night.md')).toContain('Moths at night');
    const mermaid = text('family-graph.mmd');
    expect(mermaid).toMatch(/^flowchart /);
    // A subgraph per path, named by its title, and the branch links between them.
    expect(mermaid.match(/^ {2}subgraph .*$/gm)).toEqual([
      '  subgraph t0["Bee guide"]',
      '  subgraph t1["Focus on wasps instead"]',
      '  subgraph t2["Moths at night"]',
    ]);
    expect(mermaid.match(/-\.->/g)).toHaveLength(2);

    // One file per path the graph shows: an archived path is not in the zip.
    await client.json('PATCH', `/api/conversations/${moths}`, { archived: true });
    const after = await client.request(
      'GET',
      `/api/conversations/${root}/export?format=markdown&scope=family`,
    );
    const kept = Object.keys(unzipSync(new Uint8Array(await after.arrayBuffer()))).sort();
    expect(kept).toEqual(['Bee guide.md', 'Focus on wasps instead.md', 'family-graph.mmd']);
  });

  test('each graph export is an attachment named after the family with a single charset', async () => {
    const client = await signedIn('export-graph');
    const root = await create(client, 'Bee guide');
    await send(client, root, 'hello');
    await branch(client, root, 1);
    for (const [format, type, extension] of [
      ['graphml', 'application/graphml+xml', 'graphml'],
      ['mermaid', 'text/vnd.mermaid', 'mmd'],
      ['dot', 'text/vnd.graphviz', 'dot'],
    ] as const) {
      const response = await client.request('GET', `/api/conversations/${root}/graph?format=${format}`);
      expect(response.status, format).toBe(200);
      const contentType = response.headers.get('content-type');
      expect(contentType, format).toBe(`${type}; charset=utf-8`);
      expect(charsets(contentType), format).toEqual(['utf-8']);
      const { type: disposition, filename } = parseDisposition(response.headers.get('content-disposition'));
      expect([disposition, filename], format).toEqual(['attachment', `Bee guide graph.${extension}`]);
      expect((await response.text()).length, format).toBeGreaterThan(0);
    }
  });
});

test.describe('stars and archive over HTTP', () => {
  test('GET /api/conversations leaves an archived path and the paths under it out, and include_archived=true lists them', async () => {
    const client = await signedIn('archive-list');
    const root = await create(client, 'Bee guide');
    await send(client, root, 'hello');
    await send(client, root, 'more');
    const archived = await branch(client, root, 1);
    await send(client, archived, 'a dead end');
    const under = await branch(client, archived, 2);
    const kept = await branch(client, root, 2);

    const patched = await client.json<Conversation>('PATCH', `/api/conversations/${archived}`, {
      archived: true,
    });
    expect(patched.archived).toBe(true);
    const ids = (conversations: Conversation[]) => conversations.map((c) => c.thread_id).sort();
    expect(ids(await listed(client))).toEqual([root, kept].sort());
    expect(ids(await listed(client, '?include_archived=false'))).toEqual([root, kept].sort());
    const all = await listed(client, '?include_archived=true');
    expect(ids(all)).toEqual([root, archived, under, kept].sort());
    expect(all.find((c) => c.thread_id === archived)?.archived).toBe(true);

    // Archive is not delete: archived: false brings the subtree back.
    await client.json('PATCH', `/api/conversations/${archived}`, { archived: false });
    expect(ids(await listed(client))).toEqual([root, archived, under, kept].sort());
  });

  test('PATCH refuses a starred or archived that is not a boolean with 422 and changes nothing', async () => {
    const client = await signedIn('patch-bool');
    const threadId = await create(client, 'Bee guide');
    for (const body of [
      { starred: 'true' },
      { starred: 1 },
      { starred: null },
      { archived: 'yes' },
      { archived: 0 },
      { archived: [] },
      { title: 'Renamed', starred: 'false' },
    ]) {
      const response = await client.request('PATCH', `/api/conversations/${threadId}`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const error = (
        (await response.json()) as {
          error: { code: string; message: string; details: { issues: { path: string }[] } };
        }
      ).error;
      expect(error.code, JSON.stringify(body)).toBe('validation_failed');
      expect(error.message.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(
        error.details.issues.map((issue) => issue.path),
        JSON.stringify(body),
      ).toEqual([Object.keys(body).at(-1)]);
    }
    const unchanged = await client.json<Conversation>('GET', `/api/conversations/${threadId}`);
    expect([unchanged.title, unchanged.starred, unchanged.archived]).toEqual(['Bee guide', false, false]);
    const starred = await client.json<Conversation>('PATCH', `/api/conversations/${threadId}`, {
      starred: true,
    });
    expect(starred.starred).toBe(true);
  });
});
