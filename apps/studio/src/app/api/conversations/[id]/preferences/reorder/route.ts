import { ReorderSchema } from '@trellis/domain';
import { reorderPreferences } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

/** Body: every preference id in the new order (422 when it is not exactly the current set). */
export const POST = authed<{ id: string }>(async ({ request, params, ctx, actor }) =>
  reorderPreferences(ctx.deps, actor, { threadId: params.id, ...(await readJson(request, ReorderSchema)) }),
);
