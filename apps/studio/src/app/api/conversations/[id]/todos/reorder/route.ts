import { z } from 'zod';
import { PathIdSchema, ReorderSchema, LiveTodoSchema } from '@trellis/domain';
import { reorderTodos } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Body: every todo id in the new order (422 when it is not exactly the current set). */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/todos/reorder',
    access: 'edit',
    tag: 'workspace',
    summary: 'Reorder todos (all ids, new order)',
    params: { id: PathIdSchema },
    body: ReorderSchema,
    response: z.object({ todos: z.array(LiveTodoSchema) }),
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => reorderTodos(ctx.deps, actor, { threadId: params.id, ...body }),
);
