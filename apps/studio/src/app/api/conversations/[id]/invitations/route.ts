import { CreateInvitationSchema, InvitationCreatedSchema, PathIdSchema } from '@trellis/domain';
import { createInvitation } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';
import { env } from '@/server/env';

export const dynamic = 'force-dynamic';

/** The owner invites someone: the link is in the answer only (its token is stored hashed). */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/invitations',
    tag: 'members',
    summary: 'Invite someone to the family with a role (a one-use link, 7 days by default)',
    access: 'own',
    params: { id: PathIdSchema },
    body: CreateInvitationSchema,
    response: InvitationCreatedSchema,
    status: 201,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => {
    const created = await createInvitation(ctx.deps.db, actor, {
      threadId: params.id,
      role: body.role,
      expiresInDays: body.expires_in_days,
    });
    return { ...created, url: new URL(created.url, env().baseUrl).toString() };
  },
);
