import { PathIdSchema, TurnIndexParamSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, retryTurn, toEventStream } from '@trellis/services';
import { AUTHED, defineRoute } from '@/server/define-route';
import { TURN_EVENTS } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

/** Turn k's failed or stopped reply, answered again in place: the same step, the next attempt. */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/turns/{k}/retry',
    access: 'edit',
    tag: 'turns',
    summary: 'Retry turn k’s failed or stopped reply in place (same step, no new message); streams like a send',
    description: `${TURN_EVENTS} \`turn\` carries \`attempt\`. 409 \`conflict\` unless turn k is the thread's latest turn, opened by its own user message, and its reply is \`failed\` or \`interrupted\`. The earlier attempts stay in the transcript (\`attempt\` on each later reply) and never reach the model again.`,
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    contentType: 'text/event-stream',
    errors: [...AUTHED, 'unsupported_media_type', 'not_found', 'validation_failed', 'conflict', 'turn_in_progress', 'unavailable'],
  },
  // Like a send, the retry belongs to the server: the request's signal is not passed, so a tab that
  // closes only stops reading (`…/turns/{k}/stream` follows the attempt again, `…/stop` stops it).
  async ({ params, ctx, actor }) => {
    const turn = await retryTurn(ctx.deps, actor, { threadId: params.id, turn: params.k });
    return new Response(toEventStream(turn), { headers: EVENT_STREAM_HEADERS });
  },
);
