import { PathIdSchema, TurnIndexParamSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, regenerateTurn, toEventStream } from '@trellis/services';
import { AUTHED, defineRoute } from '@/server/define-route';
import { TURN_EVENTS } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

/** Another reply to step k as a sibling branch: `branch {thread_id}` first, then the turn's events. */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/turns/{k}/regenerate',
    access: 'edit',
    tag: 'siblings',
    summary: 'Regenerate turn k’s reply as a sibling; streams `branch {thread_id}` first',
    description: TURN_EVENTS,
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    contentType: 'text/event-stream',
    errors: [...AUTHED, 'unsupported_media_type', 'not_found', 'validation_failed', 'conflict', 'branching_disabled', 'turn_in_progress', 'unavailable', 'upstream_failed'],
  },
  async ({ params, ctx, actor }) => {
    const events = await regenerateTurn(ctx.deps, actor, { threadId: params.id, turn: params.k });
    return new Response(toEventStream(events), { headers: EVENT_STREAM_HEADERS });
  },
);
