import { FamilyEventsQuerySchema, PathIdSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, subscribeFamilyEvents, toFamilyEventStream } from '@trellis/services';
import { OWNED, defineRoute, sameActorCheck } from '@/server/define-route';
import { FAMILY_EVENTS } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

/** How often an open stream checks that its session or token still stands. */
const RECHECK_MS = 30_000;

/**
 * The family's events as server-sent events, for as long as the client stays: `Last-Event-ID`
 * (header, or `last_event_id` for clients that cannot set it) replays what was missed from the
 * database first. A session signed out, a password changed or a token revoked ends the stream at
 * once (the family hub knows which session or token holds it); the periodic check is a backstop.
 */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/events',
    access: 'read',
    tag: 'turns',
    summary: 'The family’s live events (server-sent events, resumable with Last-Event-ID)',
    description: FAMILY_EVENTS,
    params: { id: PathIdSchema },
    query: FamilyEventsQuerySchema,
    contentType: 'text/event-stream',
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ request, params, query, ctx, actor }) => {
    const subscription = await subscribeFamilyEvents(ctx.deps, actor, {
      threadId: params.id,
      lastEventId: lastEventIdOf(request.headers) ?? query.last_event_id ?? null,
      holder: { userId: actor.userId, sessionId: actor.sessionId, tokenId: actor.tokenId },
    });
    const recheck = sameActorCheck(ctx, request, actor);
    return new Response(toFamilyEventStream(subscription, { recheck, recheckEveryMs: RECHECK_MS }), { headers: EVENT_STREAM_HEADERS });
  },
);

/**
 * The `Last-Event-ID` header a reconnecting EventSource sends (ignored unless it is a whole number;
 * one too long to be an id is from the future, which the hub refuses).
 */
function lastEventIdOf(headers: Headers): number | null {
  const value = headers.get('last-event-id')?.trim();
  if (!value || !/^\d+$/.test(value)) return null;
  return value.length > 15 ? Number.MAX_SAFE_INTEGER : Number(value);
}
