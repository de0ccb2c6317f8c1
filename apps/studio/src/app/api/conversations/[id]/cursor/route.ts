import { PutCursorSchema } from '@trellis/domain';
import { getCursor, putCursor } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed<{ id: string }>(async ({ params, ctx, actor }) => getCursor(ctx.deps, actor, { threadId: params.id }));

export const PUT = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const { thread_id } = await readJson(request, PutCursorSchema);
  return putCursor(ctx.deps, actor, { threadId: params.id, cursorThreadId: thread_id });
});
