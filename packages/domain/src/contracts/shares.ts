// Read-only links (docs/sharing.md): the owner's side (create, list, change, revoke) and the
// reader's (the shared view, the copy into one's own account).
import { z } from 'zod';
import { AuthorshipSchema } from './authorship';
import { IsoDateSchema } from './common';
import { MessageSchema } from './messages';
import { WorkspaceSchema } from './workspace';
import { FamilyGraphSchema } from '../graph/contracts';

const TurnSchema = z.int('must be a whole number').min(0, 'must be 0 or greater').max(2_147_483_647, 'is too large');

export const ShareScopeSchema = z
  .enum(['path', 'family'])
  .describe('`path`: this path alone (its steps up to the shared one); `family`: every path of the family, opening on this one');
export type ShareScope = z.infer<typeof ShareScopeSchema>;

const ExpirySchema = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 time with an offset' })
  .refine((value) => Date.parse(value) > Date.now(), 'must be in the future');

export const CreateShareSchema = z
  .object({
    scope: ShareScopeSchema.default('path'),
    turn: TurnSchema.optional().describe("the shared step; omitted: the path's latest"),
    follows_latest: z.boolean().default(false).describe('show the latest step whenever the link is opened instead of a pinned one'),
    expires_at: ExpirySchema.nullable().optional().describe('the link stops working then; omitted or null: never'),
  })
  .strict();
export type CreateShare = z.infer<typeof CreateShareSchema>;

export const UpdateShareSchema = z
  .object({
    turn: TurnSchema.optional(),
    follows_latest: z.boolean().optional(),
    expires_at: ExpirySchema.nullable().optional().describe('null: never expires'),
  })
  .strict();
export type UpdateShare = z.infer<typeof UpdateShareSchema>;

export const ShareSchema = z.object({
  share_id: z.string(),
  url: z.string().nullable().describe('`/s/{token}`: shown when the link is created, null afterwards (only a hash of the token is kept)'),
  thread_id: z.string().describe('the path the link names (a family link opens on it)'),
  scope: ShareScopeSchema,
  turn: z.int().nonnegative().describe('the pinned step (the latest at the time, for a link that follows the latest)'),
  follows_latest: z.boolean(),
  expires_at: IsoDateSchema.nullable(),
  created_at: IsoDateSchema,
  view_count: z.int().nonnegative(),
  last_viewed_at: IsoDateSchema.nullable(),
});
export type Share = z.infer<typeof ShareSchema>;

export const ShareListSchema = z.object({ shares: z.array(ShareSchema).describe("the family's live links, newest first") });
export type ShareList = z.infer<typeof ShareListSchema>;

/** `GET /api/shared/{token}`: a family link may open another of its paths and steps. */
export const SharedViewQuerySchema = z.object({
  thread: z.string().max(100).optional().describe('family links: the path to open (default: the one the link names)'),
  turn: z.coerce.number().pipe(TurnSchema).optional().describe('a step of the opened path up to the shared one (default: the shared step)'),
});
export type SharedViewQuery = z.infer<typeof SharedViewQuerySchema>;

export const SharedViewSchema = z.object({
  share: z.object({
    scope: ShareScopeSchema,
    title: z.string().describe('the name of the path the link names'),
    turn: z.int().nonnegative().describe('the step the link shows on its path'),
    follows_latest: z.boolean(),
    expires_at: IsoDateSchema.nullable(),
  }),
  thread_id: z.string().describe('the path shown'),
  turn: z.int().nonnegative().describe('the step shown: the workspace after it, the transcript up to it'),
  newer_steps: z.int().nonnegative().describe('a pinned link: how many steps its path has gained since'),
  title: z.string().describe('the name of the path shown'),
  messages: z.array(MessageSchema).describe(`the transcript's newest steps up to the shown one; older ones from \`…/messages\``),
  has_earlier_steps: z.boolean().describe('older steps exist before the first message given'),
  workspace: WorkspaceSchema,
  graph: FamilyGraphSchema.describe('a path link: that path alone, up to the shared step; a family link: the whole family'),
  authorship: AuthorshipSchema.describe('who wrote each part of the shown document'),
});
export type SharedView = z.infer<typeof SharedViewSchema>;

export const CopySharedSchema = z
  .object({ turn: TurnSchema.optional().describe('the step to start from, up to the shared one (default: the shared step)') })
  .strict();
export type CopyShared = z.infer<typeof CopySharedSchema>;

export const SharedCopySchema = z.object({ thread_id: z.string().describe('the new family, in the caller’s account') });
