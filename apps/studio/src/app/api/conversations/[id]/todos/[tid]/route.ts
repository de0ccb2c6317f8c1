import { UpdateTodoSchema } from '@trellis/domain';
import { deleteTodo, updateTodo } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

type Params = { id: string; tid: string };

export const PATCH = authed<Params>(async ({ request, params, ctx, actor }) =>
  updateTodo(ctx.deps, actor, { threadId: params.id, todoId: params.tid, patch: await readJson(request, UpdateTodoSchema) }),
);

export const DELETE = authed<Params>(async ({ params, ctx, actor }) => {
  await deleteTodo(ctx.deps, actor, { threadId: params.id, todoId: params.tid });
  return new Response(null, { status: 204 });
});
