import { InvitationAcceptedSchema, PathIdSchema } from '@trellis/domain';
import { acceptInvitation } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** The signed-in caller joins the family with the invitation's role; a used, expired or revoked token is a 404. */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/invitations/{token}/accept',
    tag: 'members',
    summary: 'Accept an invitation (one use)',
    params: { token: PathIdSchema },
    response: InvitationAcceptedSchema,
    errors: [...OWNED, 'unsupported_media_type'],
  },
  async ({ params, ctx, actor }) => acceptInvitation(ctx.deps.db, actor, { token: params.token }),
);
