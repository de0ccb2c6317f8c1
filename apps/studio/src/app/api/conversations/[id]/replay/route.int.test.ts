// Replay through the route: GET …/replay answers the workspace after change `seq`, and a bad `seq`
// (not a number, 0, past the last change) is a 422 naming the field, never a 500.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { ErrorBodySchema, ReplaySchema } from '@trellis/domain';
import { params, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let threadId = '';
let workspace: { PATCH: Handler };
let replay: Handler;
let request: RouteSession['request'];

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-replay-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  workspace = await import('@/app/api/conversations/[id]/workspace/route');
  replay = ((await import('./route')) as unknown as { GET: Handler }).GET;
  ({ request, threadId } = await signUpWithConversation('Replay'));
}, 120_000);

describe('GET …/replay', () => {
  it('answers the replayed workspace, and 422 for a bad seq', async () => {
    for (const content of ['One.', 'One. Two.']) {
      const saved = await workspace.PATCH(
        request(`/api/conversations/${threadId}/workspace`, {
          method: 'PATCH',
          body: JSON.stringify({ document: { content } }),
        }),
        params({ id: threadId }),
      );
      expect(saved.status).toBe(200);
    }
    const get = async (query: string) => {
      const response = await replay(
        request(`/api/conversations/${threadId}/replay${query}`),
        params({ id: threadId }),
      );
      return { status: response.status, json: (await response.json()) as unknown };
    };
    const first = await get('?seq=1');
    expect(first.status).toBe(200);
    expect(ReplaySchema.parse(first.json)).toMatchObject({
      seq: 1,
      total: 2,
      workspace: { document: { content: 'One.' } },
    });
    const second = ReplaySchema.parse((await get('?seq=2')).json);
    expect(second.diff.parts).toEqual([
      { kind: 'equal', text: 'One.' },
      { kind: 'insert', text: ' Two.' },
    ]);
    for (const bad of ['', '?seq=0', '?seq=x', '?seq=1.5', '?seq=3']) {
      const answer = await get(bad);
      expect(answer.status, bad).toBe(422);
      expect(ErrorBodySchema.parse(answer.json).error.code).toBe('validation_failed');
    }
  });
});
