import { MemberRoleSchema, PathIdSchema, UpdateMemberSchema } from '@trellis/domain';
import { removeMember, updateMember } from '@trellis/services';
import { z } from 'zod';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema, user_id: PathIdSchema };

/** The owner changes a member's role; it holds from the member's next request, and their event streams end. */
export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/conversations/{id}/members/{user_id}',
    tag: 'members',
    summary: 'Change a member’s role',
    access: 'own',
    params,
    body: UpdateMemberSchema,
    response: z.object({ user_id: z.string(), role: MemberRoleSchema }),
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) =>
    updateMember(ctx.deps.db, actor, { threadId: params.id, userId: params.user_id, role: body.role }),
);

/** The owner removes a member, or a member leaves (their own user id): refused from the next request on. */
export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/conversations/{id}/members/{user_id}',
    tag: 'members',
    summary: 'Remove a member (the owner), or leave (a member, with their own id)',
    access: 'own',
    params,
    status: 204,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, ctx, actor }) => {
    await removeMember(ctx.deps.db, actor, { threadId: params.id, userId: params.user_id });
    return new Response(null, { status: 204 });
  },
);
