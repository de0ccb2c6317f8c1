import { z } from 'zod';
import { PG_INT_MAX, StorableStringSchema } from './common';

export const MAX_DOCUMENT_CHARS = 2_000_000;

/**
 * The request body limit of a route that carries a whole document: the document limit in the
 * worst common case — three UTF-8 bytes a character (CJK), which JSON does not escape — plus the
 * envelope (title, objective, version). Every document the limit admits can be saved from the
 * editor, whichever script it is written in.
 */
export const MAX_DOCUMENT_BODY_BYTES = MAX_DOCUMENT_CHARS * 3 + 64 * 1024;

/** The 413 of a body past {@link MAX_DOCUMENT_BODY_BYTES}: the limit in the unit people count. */
export const DOCUMENT_TOO_LARGE = `The document is too large: documents may be at most ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')} characters`;
export const MAX_TEXT_CHARS = 10_000;

const ItemKeySchema = z.string().nullable().describe('Identity across paths; null only for items of snapshots older than keys');
const ItemVersionSchema = z
  .int()
  .positive()
  .describe('+1 per change of the item; send it back as `base_version` when editing. Absent on a restored (past) step.');

export const PreferenceSchema = z.object({
  id: z.string(),
  key: ItemKeySchema,
  text: z.string(),
  locked: z.boolean(),
  position: z.number().int(),
  version: ItemVersionSchema.optional(),
});
export type Preference = z.infer<typeof PreferenceSchema>;

export const TodoSchema = z.object({
  id: z.string(),
  key: ItemKeySchema,
  text: z.string(),
  done: z.boolean(),
  depth: z.number().int().min(0),
  position: z.number().int(),
  version: ItemVersionSchema.optional(),
});
export type Todo = z.infer<typeof TodoSchema>;

export const ArtifactSchema = z.object({
  id: z.string(),
  key: ItemKeySchema,
  number: z.int().positive().describe('Its number within the family (1, 2, …), kept by the branches that inherit it.'),
  turn_index: z.number().int(),
  kind: z.string(),
  title: z.string(),
  content: z.string(),
  created_at: z.string(),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

const DocumentVersionSchema = z
  .int()
  .nonnegative()
  .describe(
    '+1 per change of the document (body or title), and per update of a live editor (its batch of n updates is one change of n versions), counted along the path (a branch continues its parent’s count). ' +
      'Send it back as `document.base_version` with the next save.',
  );

export const DocumentSchema = z.object({ title: z.string(), content: z.string(), version: DocumentVersionSchema.optional() });
export type WorkspaceDocument = z.infer<typeof DocumentSchema>;

export const WorkspaceSchema = z.object({
  objective: z.string().nullable(),
  document: DocumentSchema,
  preferences: z.array(PreferenceSchema),
  todos: z.array(TodoSchema),
  artifacts: z.array(ArtifactSchema),
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const LivePreferenceSchema = PreferenceSchema.extend({ version: ItemVersionSchema });
export const LiveTodoSchema = TodoSchema.extend({ version: ItemVersionSchema });
export type LivePreference = z.infer<typeof LivePreferenceSchema>;
export type LiveTodo = z.infer<typeof LiveTodoSchema>;

/** The live workspace (GET/PATCH `…/workspace`): the document and every preference and todo carry their version. */
export const LiveWorkspaceSchema = WorkspaceSchema.extend({
  document: DocumentSchema.extend({ version: DocumentVersionSchema }),
  preferences: z.array(LivePreferenceSchema),
  todos: z.array(LiveTodoSchema),
});
export type LiveWorkspace = z.infer<typeof LiveWorkspaceSchema>;

/**
 * `details` of the 409 `conflict` a document save answers when its edits overlap edits made since
 * its base version: the current document, to merge by hand and save with this version as its base.
 */
/** Who changed the document since a refused save's base: the agent, or a person of the family. */
export const DocumentChangerSchema = z.object({
  kind: z.enum(['agent', 'person']),
  user_id: z.string().nullable(),
  name: z.string().nullable(),
});
export type DocumentChanger = z.infer<typeof DocumentChangerSchema>;

export const DocumentConflictDetailsSchema = z.object({
  document: z.object({ title: z.string(), content: z.string(), version: DocumentVersionSchema }),
  /** Who made the changes the save overlapped (each once, newest first), so the merge view can name them. */
  changed_by: z.array(DocumentChangerSchema).optional(),
});
export type DocumentConflictDetails = z.infer<typeof DocumentConflictDetailsSchema>;

/** `details` of the 409 `conflict` of an item edit whose fields were changed since its base version. */
export const ItemConflictDetailsSchema = z.object({
  item: z.union([LivePreferenceSchema, LiveTodoSchema]),
});

const baseVersion = z
  .int()
  .nonnegative()
  .max(PG_INT_MAX, 'must be at most 2147483647')
  .optional();

const text = StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_TEXT_CHARS);
const depth = z.number().int().min(0).max(8);

export const PatchWorkspaceSchema = z
  .object({
    objective: StorableStringSchema.max(MAX_TEXT_CHARS).nullable().optional(),
    document: z
      .object({
        title: StorableStringSchema.max(500).optional(),
        content: StorableStringSchema.max(MAX_DOCUMENT_CHARS).optional(),
        base_version: baseVersion.describe(
          'The `document.version` this text was edited from. A save on an older version is three-way merged onto the current ' +
            'text: a clean merge is saved (the answer holds the merged text and the new version), overlapping edits answer ' +
            '409 `conflict` with the current document in `details.document`. Without it the text replaces the current one.',
        ),
      })
      .strict()
      .optional(),
  })
  .strict();
export type PatchWorkspace = z.infer<typeof PatchWorkspaceSchema>;

export const CreatePreferenceSchema = z.object({ text, locked: z.boolean().optional() }).strict();
export const UpdatePreferenceSchema = z
  .object({
    text: text.optional(),
    locked: z.boolean().optional(),
    base_version: baseVersion.describe(
      'The item’s `version` this edit was made on. On an older version the edit is applied if the fields it sets were not ' +
        'changed since (field-level merge), else 409 `conflict` with the current item in `details.item`. Without it the edit applies to the current item.',
    ),
  })
  .strict();
export const CreateTodoSchema = z
  .object({ text, depth: depth.optional(), done: z.boolean().optional() })
  .strict();
export const UpdateTodoSchema = z
  .object({
    text: text.optional(),
    depth: depth.optional(),
    done: z.boolean().optional(),
    base_version: baseVersion.describe(
      'The item’s `version` this edit was made on. On an older version the edit is applied if the fields it sets were not ' +
        'changed since (field-level merge), else 409 `conflict` with the current item in `details.item`. Without it the edit applies to the current item.',
    ),
  })
  .strict();
export const ReorderSchema = z
  .object({ ids: z.array(StorableStringSchema).min(1).describe('every item id of the list, in the new order') })
  .strict();
export type CreatePreference = z.infer<typeof CreatePreferenceSchema>;
export type UpdatePreference = z.infer<typeof UpdatePreferenceSchema>;
export type CreateTodo = z.infer<typeof CreateTodoSchema>;
export type UpdateTodo = z.infer<typeof UpdateTodoSchema>;
export type Reorder = z.infer<typeof ReorderSchema>;

/** An item the preview kept sends its key back, so the branch's copy keeps it; a new item sends none. */
const overrideKey = z.uuid().optional();

/**
 * The displayed workspace a client may send when it branches from an edited
 * preview (docs/branching.md, "The restore rule"). Every field is optional and
 * falls back to the restore state; positions are never accepted from the client.
 */
export const WorkspaceOverrideSchema = z
  .object({
    objective: StorableStringSchema.max(MAX_TEXT_CHARS).nullable().optional(),
    document: z
      .object({ title: StorableStringSchema.max(500).optional(), content: StorableStringSchema.max(MAX_DOCUMENT_CHARS).optional() })
      .optional(),
    preferences: z
      .array(z.object({ key: overrideKey, text: StorableStringSchema.max(MAX_TEXT_CHARS), locked: z.boolean().optional() }))
      .max(500)
      .optional(),
    todos: z
      .array(
        z.object({
          key: overrideKey,
          text: StorableStringSchema.max(MAX_TEXT_CHARS),
          done: z.boolean().optional(),
          depth: depth.optional(),
        }),
      )
      .max(2000)
      .optional(),
  })
  .describe('the displayed workspace of an edited preview; omitted fields fall back to the restore state');
export type WorkspaceOverride = z.infer<typeof WorkspaceOverrideSchema>;
