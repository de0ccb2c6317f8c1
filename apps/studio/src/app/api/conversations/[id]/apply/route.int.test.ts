// POST /api/conversations/{id}/apply through its route: 201 for an apply, 200 for a dry run, and
// every hostile body a 4xx with the contract's code, never a 500.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { ApplyDryRunSchema, ApplyResultSchema } from '@trellis/domain';
import { params, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let apply: Handler;
let threadId = '';
let keyOfCite = '';

let request: RouteSession['request'];

async function post(body: unknown, id = threadId): Promise<{ status: number; json: { error?: { code: string } } & Record<string, unknown> }> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await apply(request(`/api/conversations/${id}/apply`, { method: 'POST', body: text }), params({ id }));
  return { status: response.status, json: (await response.json()) as { error?: { code: string } } };
}

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-apply-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  const messages = (await import('@/app/api/conversations/[id]/messages/route')) as unknown as { POST: Handler };
  const workspace = (await import('@/app/api/conversations/[id]/workspace/route')) as unknown as { GET: Handler };
  apply = ((await import('./route')) as unknown as { POST: Handler }).POST;
  ({ request, threadId } = await signUpWithConversation('Apply'));
  const turn = await messages.POST(
    request(`/api/conversations/${threadId}/messages`, { method: 'POST', body: JSON.stringify({ content: 'doc: # R\n\n## Findings\nx\nprefer: Cite sources' }) }),
    params({ id: threadId }),
  );
  await turn.text();
  const live = (await (await workspace.GET(request(`/api/conversations/${threadId}/workspace`), params({ id: threadId }))).json()) as {
    preferences: { key: string }[];
  };
  keyOfCite = live.preferences[0]!.key;
}, 120_000);

describe('POST /api/conversations/{id}/apply', () => {
  it('answers 200 with the dry-run comparison, then 201 with the new turn', async () => {
    const items = [{ kind: 'section', heading: 'Findings' }, { kind: 'preference', key: keyOfCite }];
    const dry = await post({ source: `${threadId}:1`, items, dry_run: true });
    expect(dry.status).toBe(200);
    expect(ApplyDryRunSchema.parse(dry.json).applied.map((a) => a.effect)).toEqual(['unchanged', 'unchanged']);
    const done = await post({ source: `${threadId}:1`, items, note: 'keep' });
    expect(done.status).toBe(201);
    expect(ApplyResultSchema.parse(done.json)).toMatchObject({ thread_id: threadId, turn_index: 2, label: '2', source: { label: '1' } });
  });

  it.each([
    ['a NUL byte in a heading', { items: [{ kind: 'section', heading: 'Find\u0000ings' }] }, 422, 'validation_failed'],
    ['a NUL byte in the note', { items: [{ kind: 'document' }], note: 'a\u0000b' }, 422, 'validation_failed'],
    ['an unknown kind', { items: [{ kind: 'merge' }] }, 422, 'validation_failed'],
    ['an unknown field', { items: [{ kind: 'document', extra: 1 }] }, 422, 'validation_failed'],
    ['no items', { items: [] }, 422, 'validation_failed'],
    ['10k items', { items: Array.from({ length: 10_000 }, () => ({ kind: 'objective' })) }, 422, 'validation_failed'],
    ['a bad node id', { source: 'th_nope:1', items: [{ kind: 'document' }] }, 422, 'validation_failed'],
    ['a negative turn', { source: `th_${'a'.repeat(32)}:-1`, items: [{ kind: 'document' }] }, 422, 'validation_failed'],
    ['a node of no family', { source: `th_${'a'.repeat(32)}:1`, items: [{ kind: 'document' }] }, 422, 'validation_failed'],
    ['a key that is in no source', { items: [{ kind: 'todo', key: 'x'.repeat(128) }] }, 422, 'validation_failed'],
    ['an over-long key', { items: [{ kind: 'todo', key: 'x'.repeat(129) }] }, 422, 'validation_failed'],
  ])('refuses %s with %i', async (_name, body, status, code) => {
    const response = await post({ source: `${threadId}:1`, ...body });
    expect(response.status).toBe(status);
    expect(response.json.error?.code).toBe(code);
  });

  it('answers a summary item with the turn\'s event stream (201), and refuses one mixed with other items (422)', async () => {
    const mixed = await post({ source: `${threadId}:1`, items: [{ kind: 'summary' }, { kind: 'document' }] });
    expect([mixed.status, mixed.json.error?.code]).toEqual([422, 'validation_failed']);
    const response = await apply(
      request(`/api/conversations/${threadId}/apply`, { method: 'POST', body: JSON.stringify({ source: `${threadId}:1`, items: [{ kind: 'summary' }] }) }),
      params({ id: threadId }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await response.text();
    expect(events).toContain('event: turn');
    const tokens = [...events.matchAll(/^event: token\ndata: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { text: string }).text);
    expect(tokens.join('')).toMatch(/^Path 1 has 1 step: /);
    expect(events).toContain('event: done');
  });

  it('refuses malformed JSON (400), a huge body (413) and an unknown target (404)', async () => {
    expect((await post('{"source":')).status).toBe(400);
    const huge = await post({ source: `${threadId}:1`, items: [{ kind: 'document' }], note: 'x'.repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect((await post({ source: `${threadId}:1`, items: [{ kind: 'document' }] }, `th_${'b'.repeat(32)}`)).status).toBe(404);
    expect((await post({ source: `${threadId}:1`, items: [{ kind: 'document' }] }, 'not-an-id')).status).toBe(404);
  });
});
