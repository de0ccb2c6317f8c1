import { CreateShareSchema, PathIdSchema, ShareListSchema, ShareSchema } from '@trellis/domain';
import { createShare, listShares } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/shares',
    tag: 'sharing',
    summary: "The family's live read-only links, with their views (owner only)",
    access: 'own',
    params: { id: PathIdSchema },
    response: ShareListSchema,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => listShares(ctx.deps, actor, { threadId: params.id }),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/shares',
    tag: 'sharing',
    summary: 'Create a read-only link to this path or its whole family (owner only); the URL is shown once',
    access: 'own',
    description:
      'Default: this path, pinned at its latest step. `turn` pins another step; `follows_latest` shows the latest step whenever the link is opened; `expires_at` ends it. The token carries 256 random bits and only its hash is stored.',
    params: { id: PathIdSchema },
    body: CreateShareSchema,
    response: ShareSchema,
    status: 201,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => createShare(ctx.deps, actor, { ...body, threadId: params.id }),
);
