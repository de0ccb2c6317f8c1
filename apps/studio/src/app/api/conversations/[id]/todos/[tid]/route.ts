import { PathIdSchema, LiveTodoSchema, UpdateTodoSchema } from '@trellis/domain';
import { deleteTodo, updateTodo } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema, tid: PathIdSchema };

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/conversations/{id}/todos/{tid}',
    access: 'edit',
    tag: 'workspace',
    summary: 'Edit, nest or complete a todo',
    params,
    body: UpdateTodoSchema,
    response: LiveTodoSchema,
    errors: [...OWNED, ...JSON_BODY, 'conflict'],
  },
  async ({ params, body, ctx, actor }) => updateTodo(ctx.deps, actor, { threadId: params.id, todoId: params.tid, patch: body }),
);

export const DELETE = defineRoute(
  { method: 'DELETE', path: '/api/conversations/{id}/todos/{tid}', access: 'edit', tag: 'workspace', summary: 'Remove a todo', params, status: 204, errors: OWNED },
  async ({ params, ctx, actor }) => {
    await deleteTodo(ctx.deps, actor, { threadId: params.id, todoId: params.tid });
    return new Response(null, { status: 204 });
  },
);
