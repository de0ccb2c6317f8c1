import { CreateTokenSchema } from '@trellis/domain';
import { createApiToken, listApiTokens } from '@trellis/services';
import { clientAddress } from '@/server/client-address';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed(async ({ ctx, actor }) => ({ tokens: await listApiTokens(ctx.deps.db, actor) }));

export const POST = authed(
  async ({ request, ctx, actor }) => {
    const { name } = await readJson(request, CreateTokenSchema);
    return createApiToken(ctx.deps.db, actor, name, clientAddress(request.headers));
  },
  { status: 201 },
);
