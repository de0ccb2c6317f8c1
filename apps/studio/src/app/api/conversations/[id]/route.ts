import { ConversationSchema, PathIdSchema, UpdateConversationSchema } from '@trellis/domain';
import { deleteConversation, getConversation, updateConversation } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

export const GET = defineRoute(
  { method: 'GET', path: '/api/conversations/{id}', access: 'read', tag: 'conversations', summary: 'One conversation', params, response: ConversationSchema, errors: OWNED },
  async ({ params, ctx, actor }) => getConversation(ctx.deps, actor, { threadId: params.id }),
);

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/conversations/{id}',
    access: 'edit',
    tag: 'conversations',
    summary: 'Rename, star or archive (archived: false restores)',
    params,
    body: UpdateConversationSchema,
    response: ConversationSchema,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => updateConversation(ctx.deps, actor, { threadId: params.id, ...body }),
);

/** Soft delete: the thread answers 404 from now on; a live branch still inherits its turns. */
export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/conversations/{id}',
    access: 'own',
    tag: 'conversations',
    summary: 'Soft delete (a branch takes its subtree out of lists and graphs)',
    params,
    status: 204,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => {
    await deleteConversation(ctx.deps, actor, { threadId: params.id });
    return new Response(null, { status: 204 });
  },
);
