// The write path through the routes: a stale document save answers 200 merged or 409 `conflict` with the
// current document in `details.document` (never a lost edit); GET …/changes pages the path's log;
// a bad cursor is a 422, never a 500.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { ChangesPageSchema, DocumentConflictDetailsSchema, ErrorBodySchema, LiveWorkspaceSchema } from '@trellis/domain';
import { params, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let threadId = '';
let workspace: { GET: Handler; PATCH: Handler };
let changes: Handler;

let request: RouteSession['request'];

async function save(document: { content: string; base_version?: number }) {
  const response = await workspace.PATCH(
    request(`/api/conversations/${threadId}/workspace`, { method: 'PATCH', body: JSON.stringify({ document }) }),
    params({ id: threadId }),
  );
  return { status: response.status, json: (await response.json()) as unknown };
}

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-changes-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  workspace = await import('@/app/api/conversations/[id]/workspace/route');
  changes = ((await import('./route')) as unknown as { GET: Handler }).GET;
  ({ request, threadId } = await signUpWithConversation('Changes'));
}, 120_000);

describe('versioned saves and the change log over HTTP', () => {
  it('answers the merged text and version, or 409 with the current document', async () => {
    const first = await save({ content: 'One two three.\n\nFour five six.' });
    expect(first.status).toBe(200);
    const base = LiveWorkspaceSchema.parse(first.json).document.version;
    const tabA = await save({ content: 'One TWO three.\n\nFour five six.', base_version: base });
    expect(LiveWorkspaceSchema.parse(tabA.json).document).toMatchObject({ content: 'One TWO three.\n\nFour five six.', version: base + 1 });
    const tabB = await save({ content: 'One two three.\n\nFour five SIX.', base_version: base });
    expect(tabB.status).toBe(200);
    expect(LiveWorkspaceSchema.parse(tabB.json).document).toMatchObject({ content: 'One TWO three.\n\nFour five SIX.', version: base + 2 });
    const clash = await save({ content: 'One 2 three.\n\nFour five six.', base_version: base });
    expect(clash.status).toBe(409);
    const error = ErrorBodySchema.parse(clash.json).error;
    expect(error.code).toBe('conflict');
    expect(DocumentConflictDetailsSchema.parse(error.details).document).toEqual({
      title: '',
      content: 'One TWO three.\n\nFour five SIX.',
      version: base + 2,
    });
  });

  it('pages the path’s changes oldest first, and refuses a bad cursor with 422', async () => {
    const page = async (query: string) => {
      const response = await changes(request(`/api/conversations/${threadId}/changes${query}`), params({ id: threadId }));
      return { status: response.status, json: (await response.json()) as unknown };
    };
    const first = await page('?limit=2');
    expect(first.status).toBe(200);
    const one = ChangesPageSchema.parse(first.json);
    expect(one).toMatchObject({ has_more: true, changes: [{ seq: 1, kind: 'document', op: 'patch', via: 'editor' }, { seq: 2 }] });
    const rest = ChangesPageSchema.parse((await page('?after_seq=2&limit=50')).json);
    expect(rest.changes.map((c) => c.seq)).toEqual([3]);
    expect(rest.has_more).toBe(false);
    expect((await page('?after_seq=-1')).status).toBe(422);
    expect((await page('?limit=0')).status).toBe(422);
  });
});
