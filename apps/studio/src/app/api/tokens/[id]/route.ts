import { PathIdSchema } from '@trellis/domain';
import { revokeApiToken } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(
  { method: 'DELETE', path: '/api/tokens/{id}', tag: 'tokens', summary: 'Revoke a token', params: { id: PathIdSchema }, status: 204, errors: OWNED },
  async ({ params, ctx, actor }) => {
    await revokeApiToken(ctx.deps, actor.userId, params.id);
    return new Response(null, { status: 204 });
  },
);
