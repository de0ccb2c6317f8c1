// Comments (docs/comments.md): notes on a step, a message or a passage of a path's document.
import { z } from 'zod';
import { IsoDateSchema, StorableStringSchema } from './common';

const INT32 = 2_147_483_647;
const OffsetSchema = z.int('must be a whole number').min(0, 'must be 0 or greater').max(INT32, 'is too large');

export const MAX_COMMENT_CHARS = 10_000;

export const CommentAnchorInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('step'), turn: OffsetSchema.describe('the step of this path') }).strict(),
  z.object({ kind: z.literal('message'), message_id: z.uuid('is not a message id') }).strict(),
  z
    .object({
      kind: z.literal('passage'),
      start: OffsetSchema.describe("UTF-16 offset into the path's live document"),
      end: OffsetSchema.describe('UTF-16 offset, exclusive'),
      quote: StorableStringSchema.min(1, 'must not be empty').max(MAX_COMMENT_CHARS).describe('the text the offsets cover, as the client sees it'),
    })
    .strict()
    .refine((a) => a.end > a.start, { message: 'end must be after start', path: ['end'] }),
]);
export type CommentAnchorInput = z.infer<typeof CommentAnchorInputSchema>;

export const CreateCommentSchema = z
  .object({
    anchor: CommentAnchorInputSchema.optional().describe('what the comment is about; a reply is about what its parent is about'),
    body: StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_COMMENT_CHARS),
    parent_id: z.uuid('is not a comment id').optional().describe('a reply to this comment (one level)'),
  })
  .strict()
  .refine((c) => c.anchor !== undefined || c.parent_id !== undefined, { message: 'say what it is about: an anchor, or parent_id for a reply', path: ['anchor'] });
export type CreateComment = z.infer<typeof CreateCommentSchema>;

export const UpdateCommentSchema = z
  .object({
    body: StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_COMMENT_CHARS).optional(),
    resolved: z.boolean().optional(),
  })
  .strict()
  .refine((u) => u.body !== undefined || u.resolved !== undefined, { message: 'say what to change: body or resolved' });
export type UpdateComment = z.infer<typeof UpdateCommentSchema>;

export const CommentAnchorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('step'), turn: z.int() }),
  z.object({ kind: z.literal('message'), message_id: z.string(), turn: z.int().describe('the step of the message') }),
  z.object({
    kind: z.literal('passage'),
    start: z.int().describe('where the passage stands now (UTF-16 offset into the live document)'),
    end: z.int(),
    quote: z.string().describe('the text it covered when the comment was made'),
    orphaned: z.boolean().describe('every unit of the passage has been deleted since'),
    removed_at_turn: z.int().nullable().describe('on an orphaned passage: the step whose change removed the last of it'),
  }),
]);
export type CommentAnchor = z.infer<typeof CommentAnchorSchema>;

export const CommentSchema = z.object({
  comment_id: z.string(),
  thread_id: z.string().describe('the path the comment was made on'),
  anchor: CommentAnchorSchema,
  body: z.string().describe('Markdown, shown as text (HTML in it is never rendered)'),
  author: z.object({ user_id: z.string(), name: z.string() }),
  parent_id: z.string().nullable(),
  resolved: z.boolean(),
  mentions: z.array(z.string()).describe('user ids of the members named with @name'),
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
});
export type Comment = z.infer<typeof CommentSchema>;

export const CommentListQuerySchema = z.object({
  status: z.enum(['open', 'resolved', 'all']).default('all').describe('open or resolved threads of comments (a reply follows its parent)'),
});

export const CommentListSchema = z.object({ comments: z.array(CommentSchema).describe('oldest first') });
export type CommentList = z.infer<typeof CommentListSchema>;
