import { TurnIndexParamSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, regenerateTurn, toEventStream } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

/** Another reply to step k as a sibling branch: `branch {thread_id}` first, then the turn's events. */
export const POST = authed<{ id: string; k: string }>(async ({ request, params, ctx, actor }) => {
  const turn = parseParam(TurnIndexParamSchema, params.k);
  const events = await regenerateTurn(ctx.deps, actor, { threadId: params.id, turn, signal: request.signal });
  return new Response(toEventStream(events), { headers: EVENT_STREAM_HEADERS });
});
