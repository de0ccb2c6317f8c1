// Invitations over HTTP: the owner's link (absolute, shown once) lets a second account join with its
// role and find the family in its list; a used, revoked or unknown token is a 404; the members list
// names everyone, and a removed member's next request is a 403.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { ConversationListSchema, InvitationCreatedSchema, MemberListSchema } from '@trellis/domain';
import { params, signUp, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

let owner: RouteSession;
let accept: Handler;
let invitations: { POST: Handler };
let invitation: { DELETE: Handler };
let members: { GET: Handler };
let member: { DELETE: Handler; PATCH: Handler };
let conversations: { GET: Handler };
let conversation: { GET: Handler };

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-invitations-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  accept = ((await import('./route')) as unknown as { POST: Handler }).POST;
  invitations = await import('@/app/api/conversations/[id]/invitations/route');
  invitation = await import('@/app/api/conversations/[id]/invitations/[invitation_id]/route');
  members = await import('@/app/api/conversations/[id]/members/route');
  member = await import('@/app/api/conversations/[id]/members/[user_id]/route');
  conversations = await import('@/app/api/conversations/route');
  conversation = await import('@/app/api/conversations/[id]/route');
  owner = await signUpWithConversation('Ana');
}, 120_000);

async function invite(role: string) {
  const response = await invitations.POST(
    owner.request(`/api/conversations/${owner.threadId}/invitations`, { method: 'POST', body: JSON.stringify({ role }) }),
    params({ id: owner.threadId }),
  );
  expect(response.status).toBe(201);
  return InvitationCreatedSchema.parse(await response.json());
}

const acceptAs = (who: { request: RouteSession['request'] }, token: string) =>
  accept(who.request(`/api/invitations/${token}/accept`, { method: 'POST' }), params({ token }));

describe('invitations over HTTP', () => {
  it('a second account joins by the link, lists the family as shared, and is refused once removed', async () => {
    const created = await invite('editor');
    expect(created.url).toMatch(/^http:\/\/[^/]+\/join\/[A-Za-z0-9_-]{43}$/);
    const token = created.url.split('/join/')[1]!;
    const ben = await signUp('Ben');
    const accepted = await acceptAs(ben, token);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ thread_id: owner.threadId, role: 'editor' });
    expect((await acceptAs(await signUp('Cleo'), token)).status).toBe(404);

    const list = ConversationListSchema.parse(await (await conversations.GET(ben.request('/api/conversations'), params({}))).json());
    expect(list.conversations.find((c) => c.thread_id === owner.threadId)).toMatchObject({ role: 'editor', owner: { name: 'Ana' } });

    const people = MemberListSchema.parse(
      await (await members.GET(owner.request(`/api/conversations/${owner.threadId}/members`), params({ id: owner.threadId }))).json(),
    );
    expect(people.members.map((m) => [m.name, m.role])).toEqual([
      ['Ana', 'owner'],
      ['Ben', 'editor'],
    ]);

    const removed = await member.DELETE(
      owner.request(`/api/conversations/${owner.threadId}/members/${ben.userId}`, { method: 'DELETE' }),
      params({ id: owner.threadId, user_id: ben.userId }),
    );
    expect(removed.status).toBe(204);
    expect((await conversation.GET(ben.request(`/api/conversations/${owner.threadId}`), params({ id: owner.threadId }))).status).toBe(403);
  });

  it('a revoked or unknown token is a 404, and so is a malformed one', async () => {
    const created = await invite('viewer');
    const revoked = await invitation.DELETE(
      owner.request(`/api/conversations/${owner.threadId}/invitations/${created.invitation_id}`, { method: 'DELETE' }),
      params({ id: owner.threadId, invitation_id: created.invitation_id }),
    );
    expect(revoked.status).toBe(204);
    const dan = await signUp('Dan');
    expect((await acceptAs(dan, created.url.split('/join/')[1]!)).status).toBe(404);
    expect((await acceptAs(dan, 'x'.repeat(43))).status).toBe(404);
    expect((await acceptAs(dan, 'not a token!')).status).toBe(404);
  });
});
