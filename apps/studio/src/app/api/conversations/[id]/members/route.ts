import { MemberListSchema, PathIdSchema } from '@trellis/domain';
import { listMembers } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/members',
    tag: 'members',
    summary: 'The family’s owner and members with their roles (and, for the owner, open invitations)',
    access: 'read',
    params: { id: PathIdSchema },
    response: MemberListSchema,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => listMembers(ctx.deps.db, actor, { threadId: params.id }),
);
