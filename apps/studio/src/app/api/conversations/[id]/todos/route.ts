import { CreateTodoSchema } from '@trellis/domain';
import { createTodo } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const POST = authed<{ id: string }>(
  async ({ request, params, ctx, actor }) =>
    createTodo(ctx.deps, actor, { threadId: params.id, todo: await readJson(request, CreateTodoSchema) }),
  { status: 201 },
);
