/**
 * Transcript import contracts: `POST /api/transcripts/inspect`,
 * `POST /api/transcripts/import`, and `POST /api/transcripts` (a zipped project folder, raw `application/zip`). The browser reads the `.jsonl` file and posts its text as JSON
 * (cookie-authenticated state changes must be JSON). `branches` and `diagnostics` are the
 * inspector's output verbatim (the inspector's own shapes, camelCase as the CLI's `--json` prints them);
 * everything this API adds is snake_case.
 */
import { z } from 'zod';
import { StorableStringSchema } from './common';

/** The largest transcript accepted, in UTF-8 bytes; larger content is a 413. */
export const MAX_TRANSCRIPT_BYTES = 20 * 1024 * 1024;

/** The most files a project zip (`POST /api/transcripts`) may hold; more is a 422. */
export const MAX_PROJECT_ENTRIES = 2_000;

/** How many diagnostics of each kind an inspection lists; the counts say how many there were. */
export const MAX_LISTED_DIAGNOSTICS = 1_000;

export const TranscriptFormatSchema = z.enum(['qwen-code', 'claude-code']);
export type TranscriptFormat = z.infer<typeof TranscriptFormatSchema>;

const FilenameSchema = StorableStringSchema.trim().max(255).optional().describe('The uploaded file name, for messages only');

/** `POST /api/transcripts`: the body is the zip itself; these say what to do with it. */
export const ImportProjectQuerySchema = z.object({
  inspect: z.enum(['true', 'false']).optional().describe('`true`: only inspect the folder (200, nothing written)'),
  again: z.enum(['true', 'false']).optional().describe('`true`: import even when the same content was imported before'),
  filename: FilenameSchema,
});
export type ImportProjectQuery = z.infer<typeof ImportProjectQuerySchema>;

export const InspectTranscriptSchema = z
  .object({
    content: z.string().describe(`The JSONL text, at most ${MAX_TRANSCRIPT_BYTES} UTF-8 bytes (else 413)`),
    filename: FilenameSchema,
  })
  .strict();
export type InspectTranscript = z.infer<typeof InspectTranscriptSchema>;

export const ImportTranscriptSchema = z
  .object({
    content: z.string().describe(`The JSONL text, at most ${MAX_TRANSCRIPT_BYTES} UTF-8 bytes (else 413)`),
    filename: FilenameSchema,
    leaf_uuids: z
      .array(StorableStringSchema.min(1))
      .min(1, 'choose at least one leaf')
      .max(1000)
      .refine((uuids) => new Set(uuids).size === uuids.length, 'must not repeat a leaf')
      .optional()
      .describe('One independent conversation per chosen leaf; absent: every leaf as ONE branch family'),
    again: z
      .boolean()
      .optional()
      .describe('Import even if this content was imported before; otherwise that is a 409 with details.reason `already_imported`'),
  })
  .strict();
export type ImportTranscript = z.infer<typeof ImportTranscriptSchema>;

/** `POST /api/transcripts/import` given a zipped project folder as JSON (base64), for clients that send only JSON. */
export const ImportProjectJsonSchema = z
  .object({
    // Not z.base64(): a regex over 27 MB on the request thread; bytes that do not decode to a zip are a 422.
    zip_base64: z
      .string()
      .describe('The zip of one project folder, base64; the same folder rules and limits as `POST /api/transcripts`'),
    filename: FilenameSchema,
    again: z.boolean().optional().describe('Import even if this content was imported before'),
  })
  .strict();
export type ImportProjectJson = z.infer<typeof ImportProjectJsonSchema>;

export const TranscriptBranchSummarySchema = z.object({
  leafUuid: z.string(),
  branchPointUuid: z.string().nullable(),
  classification: z.enum(['ordinary', 'rewind-descendant', 'rewind-sibling', 'mixed-rewind']),
  containsRewindUuids: z.array(z.string()),
  siblingRewindUuids: z.array(z.string()),
  firstUserTextAfterBranchPoint: z.string().optional(),
  lastUserText: z.string().optional(),
  lastAssistantText: z.string().optional(),
  recordCounts: z.object({
    user: z.int().nonnegative(),
    assistant: z.int().nonnegative(),
    toolResult: z.int().nonnegative(),
    system: z.int().nonnegative(),
  }),
  startedAt: z.string(),
  updatedAt: z.string(),
});
export type TranscriptBranchSummary = z.infer<typeof TranscriptBranchSummarySchema>;

export const TranscriptDiagnosticSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('missing-parent'), childUuid: z.string(), missingParentUuid: z.string() }),
  z.object({ kind: z.literal('parent-cycle'), uuids: z.array(z.string()) }),
  z.object({ kind: z.literal('conflicting-parent'), uuid: z.string(), parentUuids: z.array(z.string().nullable()) }),
]);
export type TranscriptDiagnostic = z.infer<typeof TranscriptDiagnosticSchema>;

/** A line the reader could not use, by its 1-based line number; never fatal. */
export const TranscriptReaderDiagnosticSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('malformed-line'), line: z.int(), message: z.string() }),
  z.object({ kind: z.literal('glued-objects'), line: z.int(), count: z.int() }),
  z.object({ kind: z.literal('line-too-long'), line: z.int(), length: z.int() }),
  z.object({ kind: z.literal('invalid-record'), line: z.int(), reason: z.string() }),
  z.object({ kind: z.literal('unknown-record-type'), line: z.int(), recordType: z.string() }),
]);
export type TranscriptReaderDiagnostic = z.infer<typeof TranscriptReaderDiagnosticSchema>;

/** What importing one leaf brings in. */
export const TranscriptLeafSchema = z.object({
  leaf_uuid: z.string(),
  turn_count: z.int().nonnegative().describe('User prompts on the leaf’s chain: the turns it would import'),
  title: z.string().describe('The conversation title it would get'),
});
export type TranscriptLeaf = z.infer<typeof TranscriptLeafSchema>;

/** A project folder as read: main sessions in continuation order, and each subagent run with the call that started it. */
export const TranscriptProjectSchema = z.object({
  sessions: z.array(
    z.object({
      path: z.string(),
      session_id: z.string(),
      record_count: z.int().nonnegative(),
      continues: z.string().nullable().describe('The session file this one resumes or continues'),
    }),
  ),
  subagents: z.array(
    z.object({
      path: z.string(),
      agent_id: z.string(),
      tool_use_id: z.string().nullable().describe('The Task/Agent call that started the run; null when none was found'),
      description: z.string().nullable(),
      tool_count: z.int().nonnegative(),
    }),
  ),
  diagnostics: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('missing-continuation'), path: z.string(), uuid: z.string() }),
      z.object({ kind: z.literal('unattached-subagent'), path: z.string(), agentId: z.string() }),
      z.object({ kind: z.literal('ignored-entry'), path: z.string(), reason: z.string() }),
    ]),
  ),
});
export type TranscriptProject = z.infer<typeof TranscriptProjectSchema>;

export const TranscriptInspectionSchema = z.object({
  format: TranscriptFormatSchema.describe('Detected from the records (Qwen Code when undecidable)'),
  filename: z.string().nullable(),
  record_count: z.int().nonnegative().describe('Records of the main conversation (sidechains excluded)'),
  branches: z.array(TranscriptBranchSummarySchema).describe('Every semantic leaf, in physical order'),
  leaves: z.array(TranscriptLeafSchema).describe('Aligned with `branches`'),
  diagnostics: z.array(TranscriptDiagnosticSchema).describe(`The first ${MAX_LISTED_DIAGNOSTICS}`),
  diagnostic_count: z.int().nonnegative(),
  reader_diagnostics: z.array(TranscriptReaderDiagnosticSchema).describe(`The first ${MAX_LISTED_DIAGNOSTICS}, by line`),
  reader_diagnostic_count: z.int().nonnegative(),
  skipped_record_types: z
    .array(z.object({ record_type: z.string(), count: z.int().positive() }))
    .describe('Well-formed lines of record types the reader does not know (a newer client writes them): skipped and counted, never damage'),
  project: TranscriptProjectSchema.optional().describe('Only for a project folder (a zip): its sessions and subagent runs'),
});
export type TranscriptInspection = z.infer<typeof TranscriptInspectionSchema>;

export const TranscriptImportedSchema = z.object({
  conversations: z
    .array(z.object({ leaf_uuid: z.string(), thread_id: z.string() }))
    .describe('Every imported leaf, in physical order, with the thread that shows it'),
  root_thread_id: z.string().nullable().describe('The family root when importing all leaves as one family'),
});
export type TranscriptImported = z.infer<typeof TranscriptImportedSchema>;
