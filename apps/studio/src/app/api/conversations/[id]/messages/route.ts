import { MessageListQuerySchema, MessageListSchema, PathIdSchema, SendMessageSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, listMessages, sendTurn, toEventStream } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';
import { TURN_EVENTS } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

/** The displayed transcript (ancestors up to each branch point, then this thread), paged by turns. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/messages',
    access: 'read',
    tag: 'turns',
    summary: 'The displayed path’s transcript, paginated by turns',
    params,
    query: MessageListQuerySchema,
    response: MessageListSchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => listMessages(ctx.deps, actor, { threadId: params.id, ...query }),
);

/**
 * One turn as server-sent events. Every refusal (404, 403, 422, 409 while another
 * turn runs) is plain JSON before the stream starts. The server owns the turn: a client that goes
 * away only stops reading (the reply runs to its end; `…/turns/{k}/stream` follows it again, and
 * `…/turns/{k}/stop` stops it).
 */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/messages',
    access: 'edit',
    tag: 'turns',
    summary: 'Send a message: one turn, streamed',
    description: TURN_EVENTS,
    params,
    body: SendMessageSchema,
    contentType: 'text/event-stream',
    errors: [...OWNED, ...JSON_BODY, 'turn_in_progress', 'unavailable'],
  },
  async ({ params, body, ctx, actor }) => {
    const turn = await sendTurn(ctx.deps, actor, { threadId: params.id, content: body.content, refs: body.refs });
    return new Response(toEventStream(turn), { headers: EVENT_STREAM_HEADERS });
  },
);
