import { z } from 'zod';
import { IsoDateSchema, StorableStringSchema } from './common';
import { MAX_DOCUMENT_CHARS } from './workspace';

/**
 * One operation of a document patch, read left to right over the old text (UTF-16 units):
 * `{r: n}` keeps n units, `{d: n}` drops n, `{i: text}` inserts text. What the change log stores.
 */
export const DocPatchOpSchema = z.union([
  z.object({ r: z.int().nonnegative() }).strict(),
  z.object({ d: z.int().nonnegative() }).strict(),
  z.object({ i: StorableStringSchema.max(MAX_DOCUMENT_CHARS) }).strict(),
]);
export const DocPatchSchema = z.array(DocPatchOpSchema).max(20_000);

/** A live editor's id for itself (one per open editor): its own updates come back under it. */
export const CollabClientIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'is not a client id')
  .describe('the sending editor’s id (8–64 letters, digits, `_` or `-`); its own updates come back under it');

/** One step of the document's version: a body patch (an empty one for a title change) and who sent it. */
export const DocumentUpdateSchema = z.object({
  version: z.int().positive().describe('the document version this update made'),
  client_id: z
    .string()
    .nullable()
    .describe('the live editor that sent it; null for the agent, an apply or a REST save'),
  length: z.int().nonnegative().describe('the length (UTF-16 units) of the text the patch applies to'),
  patch: DocPatchSchema,
  title: z.string().optional().describe('the new title, when this update changed it'),
});
export type DocumentUpdate = z.infer<typeof DocumentUpdateSchema>;

export const DocumentUpdatesSchema = z.object({
  version: z.int().nonnegative().describe('the document’s version after these updates'),
  updates: z.array(DocumentUpdateSchema).describe('oldest first, one per version after `since`'),
});
export type DocumentUpdates = z.infer<typeof DocumentUpdatesSchema>;

export const DocumentUpdatesQuerySchema = z.object({
  since: z.coerce
    .number()
    .int()
    .min(0)
    .describe('the version the editor holds: the updates after it are answered'),
});

export const PushDocumentUpdatesSchema = z
  .object({
    version: z
      .int()
      .nonnegative()
      .describe(
        'the version the updates were made on; on an older one they are rebased over the updates since (never refused)',
      ),
    client_id: CollabClientIdSchema,
    length: z
      .int()
      .nonnegative()
      .optional()
      .describe(
        'the length (UTF-16 units) of the editor’s text at `version`: with it, updates on the current version are taken in one statement',
      ),
    updates: z
      .array(z.object({ patch: DocPatchSchema }).strict())
      .min(1)
      .max(500)
      .describe('the editor’s unconfirmed updates in order, each a patch of the text the previous one made'),
  })
  .strict();
export type PushDocumentUpdates = z.infer<typeof PushDocumentUpdatesSchema>;

/** The family stream's `document_updates` message (no event id: the change log is its record). */
export const DocumentUpdatesSignalSchema = z.object({
  thread_id: z.string(),
  version: z.int().nonnegative(),
  updates: z
    .array(DocumentUpdateSchema)
    .optional()
    .describe('absent when too large to carry: read them with `since`'),
});
export type DocumentUpdatesSignal = z.infer<typeof DocumentUpdatesSignalSchema>;

/** One open tab of a person in the family: which path and step it shows, and whether they are typing. */
export const PresenceEntrySchema = z.object({
  client_id: z.string().describe('the tab (its heartbeats’ `client_id`), so a tab knows its own entry'),
  user_id: z.string(),
  name: z.string().describe('the person’s display name (their email when they have none)'),
  thread_id: z.string().describe('the path the tab shows'),
  turn_index: z.int().nonnegative().nullable().describe('the step the tab shows; null for the path’s latest'),
  is_typing: z.boolean().describe('typing in the document right now'),
  last_seen_at: IsoDateSchema,
});
export type PresenceEntry = z.infer<typeof PresenceEntrySchema>;

export const PresenceSchema = z.object({
  family_id: z.string(),
  people: z
    .array(PresenceEntrySchema)
    .describe('one entry per open tab, heard from within the last 20 seconds'),
  as_of: z
    .string()
    .describe(
      'when the server read this list (UTC, microseconds): of two lists that arrive out of order, the later read is the truth',
    ),
});
export type Presence = z.infer<typeof PresenceSchema>;

export const HeartbeatPresenceSchema = z
  .object({
    client_id: CollabClientIdSchema,
    turn_index: z
      .int()
      .nonnegative()
      .nullable()
      .optional()
      .describe('the step the tab shows; null or absent for the latest'),
    is_typing: z.boolean().optional(),
  })
  .strict();
export type HeartbeatPresence = z.infer<typeof HeartbeatPresenceSchema>;

export const LeavePresenceQuerySchema = z.object({ client_id: CollabClientIdSchema });
