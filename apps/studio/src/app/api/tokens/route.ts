import { CreateTokenSchema, TokenCreatedSchema, TokenListSchema } from '@trellis/domain';
import { createApiToken, listApiTokens } from '@trellis/services';
import { clientAddress } from '@/server/client-address';
import { AUTHED, JSON_BODY, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/tokens',
    tag: 'tokens',
    summary: "The caller's API tokens (never the secrets); a signed-in session only, not a token",
    response: TokenListSchema,
    errors: AUTHED,
  },
  async ({ ctx, actor }) => ({ tokens: await listApiTokens(ctx.deps.db, actor) }),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/tokens',
    tag: 'tokens',
    summary: 'Create a personal API token (signed-in session only); the secret is shown once',
    body: CreateTokenSchema,
    response: TokenCreatedSchema,
    status: 201,
    errors: [...AUTHED, ...JSON_BODY, 'rate_limited'],
  },
  async ({ request, body, ctx, actor }) => createApiToken(ctx.deps.db, actor, body.name, clientAddress(request.headers)),
);
