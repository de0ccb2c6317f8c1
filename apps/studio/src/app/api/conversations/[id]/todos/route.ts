import { CreateTodoSchema, PathIdSchema, LiveTodoSchema } from '@trellis/domain';
import { createTodo } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/todos',
    access: 'edit',
    tag: 'workspace',
    summary: 'Add a todo',
    params: { id: PathIdSchema },
    body: CreateTodoSchema,
    response: LiveTodoSchema,
    status: 201,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => createTodo(ctx.deps, actor, { threadId: params.id, todo: body }),
);
