import { PathIdSchema, StopTurnResultSchema, TurnIndexParamSchema } from '@trellis/domain';
import { stopTurn } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/**
 * Stops turn k wherever it runs (this process or another): its reply is stored `interrupted` with
 * the reason "you stopped this reply". A turn that already ended answers `is_running: false`.
 */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/turns/{k}/stop',
    access: 'edit',
    tag: 'turns',
    summary: 'Stop turn k’s reply (it keeps what it produced, as `interrupted`)',
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    response: StopTurnResultSchema,
    errors: [...OWNED, 'unsupported_media_type', 'validation_failed'],
  },
  async ({ params, ctx, actor }) => stopTurn(ctx.deps, actor, { threadId: params.id, turn: params.k }),
);
