import { PathIdSchema, StepChangesSchema, TurnIndexParamSchema } from '@trellis/domain';
import { getStepChanges } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** What changed at step k of this path (the compare of k−1 and k) and what was discarded there. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/turns/{k}/changes',
    access: 'read',
    tag: 'branches',
    summary: 'What changed at step k (the compare of k−1 and k) and what was discarded there',
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    response: StepChangesSchema,
    errors: [...OWNED, 'conflict', 'validation_failed'],
  },
  async ({ params, ctx, actor }) => getStepChanges(ctx.deps, actor, { threadId: params.id, turn: params.k }),
);
