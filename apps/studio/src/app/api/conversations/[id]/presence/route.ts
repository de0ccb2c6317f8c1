import {
  HeartbeatPresenceSchema,
  LeavePresenceQuerySchema,
  PathIdSchema,
  PresenceSchema,
} from '@trellis/domain';
import { getPresence, heartbeatPresence, leavePresence } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';
import { PRESENCE } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/presence',
    access: 'read',
    tag: 'presence',
    summary: 'Who has the family open: path, step, typing',
    description: PRESENCE,
    params,
    response: PresenceSchema,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => getPresence(ctx.deps, actor, { threadId: params.id }),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/presence',
    access: 'read',
    tag: 'presence',
    summary: 'A tab showing this thread is here (heartbeat every 10 s, and when its step or typing changes)',
    description: PRESENCE,
    params,
    body: HeartbeatPresenceSchema,
    response: PresenceSchema,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) =>
    heartbeatPresence(ctx.deps, actor, { threadId: params.id, beat: body }),
);

export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/conversations/{id}/presence',
    access: 'read',
    tag: 'presence',
    summary: 'A closing tab leaves at once',
    params,
    query: LeavePresenceQuerySchema,
    status: 204,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => {
    await leavePresence(ctx.deps, actor, { threadId: params.id, clientId: query.client_id });
    return new Response(null, { status: 204 });
  },
);
