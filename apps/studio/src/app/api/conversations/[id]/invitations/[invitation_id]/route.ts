import { PathIdSchema } from '@trellis/domain';
import { revokeInvitation } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/conversations/{id}/invitations/{invitation_id}',
    tag: 'members',
    summary: 'Revoke an invitation not yet used',
    access: 'own',
    params: { id: PathIdSchema, invitation_id: PathIdSchema },
    status: 204,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => {
    await revokeInvitation(ctx.deps.db, actor, { threadId: params.id, invitationId: params.invitation_id });
    return new Response(null, { status: 204 });
  },
);
