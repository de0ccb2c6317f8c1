import { PathIdSchema, ShareSchema, UpdateShareSchema } from '@trellis/domain';
import { revokeShare, updateShare } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/shares/{shareId}',
    tag: 'sharing',
    summary: 'Change a link’s step, whether it follows the latest, or its expiry; the URL stays the same',
    params: { shareId: PathIdSchema },
    body: UpdateShareSchema,
    response: ShareSchema,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => updateShare(ctx.deps, actor, { ...body, shareId: params.shareId }),
);

export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/shares/{shareId}',
    tag: 'sharing',
    summary: 'Revoke a link: it stops working at once',
    params: { shareId: PathIdSchema },
    status: 204,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => {
    await revokeShare(ctx.deps, actor, { shareId: params.shareId });
    return new Response(null, { status: 204 });
  },
);
