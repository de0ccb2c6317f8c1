import { UpdateConversationSchema } from '@trellis/domain';
import { deleteConversation, getConversation, updateConversation } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed<{ id: string }>(async ({ params, ctx, actor }) =>
  getConversation(ctx.deps, actor, { threadId: params.id }),
);

export const PATCH = authed<{ id: string }>(async ({ request, params, ctx, actor }) =>
  updateConversation(ctx.deps, actor, { threadId: params.id, ...(await readJson(request, UpdateConversationSchema)) }),
);

/** Soft delete: the thread answers 404 from now on; a live branch still inherits its turns. */
export const DELETE = authed<{ id: string }>(async ({ params, ctx, actor }) => {
  await deleteConversation(ctx.deps, actor, { threadId: params.id });
  return new Response(null, { status: 204 });
});
