import { CreatePreferenceSchema } from '@trellis/domain';
import { createPreference } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const POST = authed<{ id: string }>(
  async ({ request, params, ctx, actor }) =>
    createPreference(ctx.deps, actor, { threadId: params.id, preference: await readJson(request, CreatePreferenceSchema) }),
  { status: 201 },
);
