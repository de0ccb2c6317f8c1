import { PathIdSchema, TurnIndexParamSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, followTurn, toEventStream } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';
import { TURN_EVENTS } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

/**
 * Turn k's events from where the reply is: the text so far in one `token`, then the rest as it
 * streams (whichever studio process runs it), then `done`; a finished turn answers its stored reply.
 * Closing this stream never stops the turn.
 */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/turns/{k}/stream',
    access: 'read',
    tag: 'turns',
    summary: 'Follow turn k’s reply: the text so far, then the rest',
    description: TURN_EVENTS,
    params: { id: PathIdSchema, k: TurnIndexParamSchema },
    contentType: 'text/event-stream',
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, ctx, actor }) => {
    const events = await followTurn(ctx.deps, actor, { threadId: params.id, turn: params.k });
    return new Response(toEventStream(events), { headers: EVENT_STREAM_HEADERS });
  },
);
