import { ReorderSchema } from '@trellis/domain';
import { reorderTodos } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

/** Body: every todo id in the new order (422 when it is not exactly the current set). */
export const POST = authed<{ id: string }>(async ({ request, params, ctx, actor }) =>
  reorderTodos(ctx.deps, actor, { threadId: params.id, ...(await readJson(request, ReorderSchema)) }),
);
