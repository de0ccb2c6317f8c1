import { z } from 'zod';
import { StorableStringSchema } from './common';

export const SEARCH_PAGE_SIZE = 20;

/** `GET /api/search`: websearch syntax ("quoted phrases", -exclusions, or). */
export const SearchQuerySchema = z
  .object({
    q: StorableStringSchema.trim().min(1, 'must not be empty').max(200),
    family: StorableStringSchema.optional().describe('Any thread of a family: search only that family.'),
    page: z.coerce.number().int().min(1).max(500).default(1),
  })
  .strict();
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

/** `message`: what opened a step (a user message, or an apply entry); `reply`: the agent's answer. */
export const SearchHitKindSchema = z.enum(['message', 'reply', 'document', 'preference', 'todo']);
export type SearchHitKind = z.infer<typeof SearchHitKindSchema>;

export const SearchHitSchema = z.object({
  thread_id: z.string().describe('The path to open.'),
  path_title: z.string().describe("The path's title, plain text."),
  turn_index: z
    .int()
    .nonnegative()
    .describe('The step to open: in the restore view, or live when `is_latest_step`. For a passage found in several document versions, the newest step that holds it.'),
  label: z.string().describe("The step's label, as the family graph shows it."),
  first_turn_index: z
    .int()
    .nonnegative()
    .describe('The first step of this path that holds the passage (`turn_index` unless a document passage spans several steps).'),
  first_label: z.string().describe("The first step's label (\"in steps 4–9\": `first_label`–`label`)."),
  is_latest_step: z.boolean().describe("The step is its path's latest: open the path live, so the next message continues it."),
  kind: SearchHitKindSchema,
  snippet: z.string().describe('The matching passage, plain text.'),
  highlights: z
    .array(z.tuple([z.int().nonnegative(), z.int().nonnegative()]))
    .describe('[start, end) UTF-16 offsets into `snippet` of the words that matched the query.'),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z.object({
  hits: z
    .array(SearchHitSchema)
    .describe('Best first. A passage that several document versions of one family share is one hit (its path, its range of steps).'),
  next_page: z.int().positive().nullable(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;
