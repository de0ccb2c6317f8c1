import { PathIdSchema, RestoreViewSchema, TurnIndexParamSchema } from '@trellis/domain';
import { getRestoreView } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Restore view: the workspace after turn k and the transcript up to it. Creates nothing. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/turns/{k}',
    access: 'read',
    tag: 'branches',
    summary: 'Restore view: the workspace after turn k and the transcript up to it (creates nothing)',
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    response: RestoreViewSchema,
    errors: [...OWNED, 'conflict', 'validation_failed'],
  },
  async ({ params, ctx, actor }) => getRestoreView(ctx.deps, actor, { threadId: params.id, turn: params.k }),
);
