import { CommentSchema, PathIdSchema, UpdateCommentSchema } from '@trellis/domain';
import { deleteComment, updateComment } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/comments/{commentId}',
    tag: 'comments',
    summary: 'Edit a comment (its author) or resolve and reopen it (any commenter)',
    params: { commentId: PathIdSchema },
    body: UpdateCommentSchema,
    response: CommentSchema,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => updateComment(ctx.deps, actor, { ...body, commentId: params.commentId }),
);

export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/comments/{commentId}',
    tag: 'comments',
    summary: 'Delete a comment and its replies (its author or the owner)',
    params: { commentId: PathIdSchema },
    status: 204,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => {
    await deleteComment(ctx.deps, actor, { commentId: params.commentId });
    return new Response(null, { status: 204 });
  },
);
