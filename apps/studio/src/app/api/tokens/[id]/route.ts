import { revokeApiToken } from '@trellis/services';
import { authed } from '@/server/http';

export const dynamic = 'force-dynamic';

export const DELETE = authed<{ id: string }>(async ({ params, ctx, actor }) => {
  await revokeApiToken(ctx.deps.db, actor.userId, params.id);
  return new Response(null, { status: 204 });
});
