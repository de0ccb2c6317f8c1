import { CursorSchema, PathIdSchema, PutCursorSchema } from '@trellis/domain';
import { getCursor, putCursor } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

export const GET = defineRoute(
  { method: 'GET', path: '/api/conversations/{id}/cursor', access: 'read', tag: 'siblings', summary: 'The last viewed thread of the family', params, response: CursorSchema, errors: OWNED },
  async ({ params, ctx, actor }) => getCursor(ctx.deps, actor, { threadId: params.id }),
);

export const PUT = defineRoute(
  {
    method: 'PUT',
    path: '/api/conversations/{id}/cursor',
    access: 'read',
    tag: 'siblings',
    summary: 'Remember the viewed thread of the family',
    params,
    body: PutCursorSchema,
    response: CursorSchema,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => putCursor(ctx.deps, actor, { threadId: params.id, cursorThreadId: body.thread_id }),
);
