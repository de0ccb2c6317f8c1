import { UpdatePreferenceSchema } from '@trellis/domain';
import { deletePreference, updatePreference } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

type Params = { id: string; pid: string };

export const PATCH = authed<Params>(async ({ request, params, ctx, actor }) =>
  updatePreference(ctx.deps, actor, {
    threadId: params.id,
    preferenceId: params.pid,
    patch: await readJson(request, UpdatePreferenceSchema),
  }),
);

export const DELETE = authed<Params>(async ({ params, ctx, actor }) => {
  await deletePreference(ctx.deps, actor, { threadId: params.id, preferenceId: params.pid });
  return new Response(null, { status: 204 });
});
