import { MessageListQuerySchema, SendMessageSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, listMessages, sendTurn, toEventStream } from '@trellis/services';
import { authed, parseParam, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

/** The displayed transcript (ancestors up to each branch point, then this thread), paged by turns. */
export const GET = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const query = parseParam(MessageListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return listMessages(ctx.deps, actor, { threadId: params.id, ...query });
});

/**
 * One turn as server-sent events. Every refusal (404, 403, 422, 409 while another
 * turn runs) is plain JSON before the stream starts; a client that goes away
 * interrupts the model and the turn keeps what was produced.
 */
export const POST = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const { content } = await readJson(request, SendMessageSchema);
  const turn = await sendTurn(ctx.deps, actor, { threadId: params.id, content, signal: request.signal });
  return new Response(toEventStream(turn), { headers: EVENT_STREAM_HEADERS });
});
