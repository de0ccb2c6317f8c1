import { PathIdSchema, ReplayQuerySchema, ReplaySchema } from '@trellis/domain';
import { replayChange } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** The workspace right after one change of the path, with the change and what it did. Read only. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/replay',
    access: 'read',
    tag: 'workspace',
    summary: 'Replay the path: the workspace after its change `seq`, the change, its step and its diff',
    params: { id: PathIdSchema },
    query: ReplayQuerySchema,
    response: ReplaySchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) =>
    replayChange(ctx.deps, actor, { threadId: params.id, seq: query.seq }),
);
