import { z } from 'zod';
import { EditTurnSchema, PathIdSchema, TurnIndexParamSchema } from '@trellis/domain';
import { editTurn } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Creates the edited sibling of step k (a branch at k−1); the client then sends the text there. */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/turns/{k}/edit',
    access: 'edit',
    tag: 'siblings',
    summary: 'Edit turn k’s message: creates the sibling branch at k−1',
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    body: EditTurnSchema,
    response: z.object({ thread_id: z.string() }),
    status: 201,
    errors: [...OWNED, ...JSON_BODY, 'conflict', 'branching_disabled', 'unavailable', 'upstream_failed'],
  },
  async ({ params, body, ctx, actor }) => editTurn(ctx.deps, actor, { threadId: params.id, turn: params.k, content: body.content }),
);
