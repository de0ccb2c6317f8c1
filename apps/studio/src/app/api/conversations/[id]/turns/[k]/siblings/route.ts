import { PathIdSchema, SiblingListSchema, TurnIndexParamSchema } from '@trellis/domain';
import { listSiblings } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/turns/{k}/siblings',
    access: 'read',
    tag: 'siblings',
    summary: 'The paths that diverge at step k, oldest first',
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    response: SiblingListSchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, ctx, actor }) => listSiblings(ctx.deps, actor, { threadId: params.id, turn: params.k }),
);
