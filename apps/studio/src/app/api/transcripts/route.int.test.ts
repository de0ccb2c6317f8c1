// A project folder import through the route: `POST /api/transcripts` takes a zipped project folder (raw
// application/zip). A resumed session across two files and a subagent file become one family whose
// Task call carries the run; every refusal is a 4xx with a JSON message, never a 500.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import {
  ErrorBodySchema,
  MAX_TRANSCRIPT_BYTES,
  MessageListSchema,
  TranscriptImportedSchema,
  TranscriptInspectionSchema,
} from '@trellis/domain';
import { projectFolder } from '@trellis/transcripts/testing/project-folder';
import { params, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let post: Handler;
let messages: Handler;
let jsonImport: Handler;
let session: RouteSession;

function zipOf(files: { path: string; text: string }[]): Uint8Array {
  return zipSync(Object.fromEntries(files.map((f) => [f.path, strToU8(f.text)])));
}

async function send(body: Uint8Array, query = '', contentType = 'application/zip') {
  const base = session.request(`/api/transcripts${query}`, { method: 'POST' });
  const headers = new Headers(base.headers);
  headers.set('content-type', contentType);
  const response = await post(
    new Request(base.url, { method: 'POST', headers, body: body as Uint8Array<ArrayBuffer> }),
    params({}),
  );
  return { status: response.status, json: (await response.json()) as unknown };
}

async function refusal(body: Uint8Array, contentType?: string) {
  const { status, json } = await send(body, '?inspect=true', contentType);
  return { status, error: ErrorBodySchema.parse(json).error };
}

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-project-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  post = ((await import('./route')) as unknown as { POST: Handler }).POST;
  jsonImport = ((await import('./import/route')) as unknown as { POST: Handler }).POST;
  messages = ((await import('@/app/api/conversations/[id]/messages/route')) as unknown as { GET: Handler })
    .GET;
  session = await signUpWithConversation('Project');
}, 120_000);

describe('POST /api/transcripts (a zipped project folder)', () => {
  it('inspects, then imports a resumed session and its subagent as one family with two paths', async () => {
    const zip = zipOf(projectFolder());
    const inspected = await send(zip, '?inspect=true&filename=project.zip');
    expect(inspected.status).toBe(200);
    const inspection = TranscriptInspectionSchema.parse(inspected.json);
    expect(inspection.project?.sessions.map((s) => [s.path, s.continues])).toEqual([
      ['project/aaaa-first.jsonl', null],
      ['project/bbbb-resumed.jsonl', 'project/aaaa-first.jsonl'],
    ]);
    expect(inspection.project?.subagents).toEqual([
      expect.objectContaining({ agent_id: 'ag1', tool_use_id: 'toolu_task', tool_count: 1 }),
    ]);
    expect(inspection.branches).toHaveLength(2);

    const imported = await send(zip, '?filename=project.zip');
    expect(imported.status).toBe(201);
    const family = TranscriptImportedSchema.parse(imported.json);
    expect(family.conversations).toHaveLength(2);
    expect(family.root_thread_id).not.toBeNull();
    const threadIds = new Set(family.conversations.map((c) => c.thread_id));
    expect(threadIds.size).toBe(2);

    // The resumed path shows all three turns, the first file's two and the resumed one.
    const resumed = family.conversations.find((c) => c.leaf_uuid === 'a4')!;
    const listed = await messages(
      session.request(`/api/conversations/${resumed.thread_id}/messages`),
      params({ id: resumed.thread_id }),
    );
    const list = MessageListSchema.parse(await listed.json());
    expect(list.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'Plan the parser',
      'Write the tokenizer',
      'Carry on with the grammar',
    ]);
    const task = list.messages.flatMap((m) => m.tool_calls).find((call) => call.id === 'toolu_task');
    expect(task?.subagent).toEqual({
      agent_id: 'ag1',
      description: 'Survey grammars',
      prompt: 'Find grammar files',
      reply: 'Two grammars found',
      tools: ['Grep'],
      record_count: 4,
    });

    const again = await send(zip, '?filename=project.zip');
    expect(again.status).toBe(409);

    // The existing import takes the same zip as JSON (base64) and reads it the same way.
    const body = JSON.stringify({
      zip_base64: Buffer.from(zip).toString('base64'),
      filename: 'project.zip',
      again: true,
    });
    const viaJson = await jsonImport(
      session.request('/api/transcripts/import', { method: 'POST', body }),
      params({}),
    );
    expect(viaJson.status).toBe(201);
    expect(
      TranscriptImportedSchema.parse(await viaJson.json()).conversations.map((c) => c.leaf_uuid),
    ).toEqual(['a3b', 'a4']);
  });

  it('answers 413 over the upload size limit, zipped or unzipped', async () => {
    const oversized = new Uint8Array(MAX_TRANSCRIPT_BYTES + 1);
    oversized.set([0x50, 0x4b, 0x03, 0x04]);
    const zipped = await refusal(oversized);
    expect(zipped.status).toBe(413);
    expect(zipped.error.code).toBe('payload_too_large');

    // A small zip that inflates past the limit is refused from its directory.
    const bomb = zipOf([{ path: 'p/big.jsonl', text: ' '.repeat(MAX_TRANSCRIPT_BYTES + 1) }]);
    expect(bomb.byteLength).toBeLessThan(MAX_TRANSCRIPT_BYTES / 100);
    const unzipped = await refusal(bomb);
    expect(unzipped.status).toBe(413);
    expect(unzipped.error.message).toMatch(/unzipped/);
  });

  it('answers 422 for too many entries, a path leaving the folder, bytes that are not a zip, or no session file', async () => {
    const many = Array.from({ length: 2_001 }, (_, i) => ({ path: `p/f${i}.txt`, text: '' }));
    const tooMany = await refusal(zipOf(many));
    expect([tooMany.status, (tooMany.error.details as { reason: string }).reason]).toEqual([
      422,
      'too-many-entries',
    ]);

    for (const unsafe of ['p/../../etc/x.jsonl', '/abs/x.jsonl']) {
      const climbing = await refusal(zipOf([...projectFolder(), { path: unsafe, text: '{}' }]));
      expect([climbing.status, (climbing.error.details as { reason: string }).reason]).toEqual([
        422,
        'unsafe-path',
      ]);
    }

    const text = await refusal(strToU8('{"type":"user"}\n'));
    expect([text.status, (text.error.details as { reason: string }).reason]).toEqual([422, 'not-a-zip']);
    const truncated = await refusal(zipOf(projectFolder()).slice(0, 200));
    expect([truncated.status, (truncated.error.details as { reason: string }).reason]).toEqual([
      422,
      'not-a-zip',
    ]);

    const onlyRuns = projectFolder().filter((f) => f.path.includes('/subagents/'));
    const noSession = await refusal(zipOf([...onlyRuns, { path: 'p/readme.txt', text: 'hi' }]));
    expect([noSession.status, (noSession.error.details as { reason: string }).reason]).toEqual([
      422,
      'no-session',
    ]);
  });

  it('answers 415 for a body that is neither a zip nor JSON', async () => {
    const wrong = await refusal(zipOf(projectFolder()), 'text/plain');
    expect(wrong.status).toBe(415);
  });
});
