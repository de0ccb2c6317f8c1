import { CommentListQuerySchema, CommentListSchema, CommentSchema, CreateCommentSchema, PathIdSchema } from '@trellis/domain';
import { createComment, listComments } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/comments',
    tag: 'comments',
    summary: "The path's comments, passages where they stand now",
    description:
      'Its own comments and those on the steps and messages it inherits. A passage anchor is carried through every later change of the document by the change log: `start`/`end` are where it stands now; when all of its text is gone it is `orphaned` with `removed_at_turn`, and keeps its quote.',
    access: 'read',
    params: { id: PathIdSchema },
    query: CommentListQuerySchema,
    response: CommentListSchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => listComments(ctx.deps, actor, { threadId: params.id, status: query.status }),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/comments',
    tag: 'comments',
    summary: 'Comment on a step, a message or a passage of the live document (commenters and up)',
    description:
      '`anchor`: `{kind: "step", turn}`, `{kind: "message", message_id}` or `{kind: "passage", start, end, quote}` (UTF-16 offsets into the live document; `quote` must be the text they cover). `parent_id` makes a reply (one level). `@name` of a member tells them through the family channel.',
    access: 'comment',
    params: { id: PathIdSchema },
    body: CreateCommentSchema,
    response: CommentSchema,
    status: 201,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => createComment(ctx.deps, actor, { ...body, threadId: params.id }),
);
