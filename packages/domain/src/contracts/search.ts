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
  turn_index: z.int().nonnegative().describe('The step to open in the restore view.'),
  label: z.string().describe("The step's label, as the family graph shows it."),
  kind: SearchHitKindSchema,
  snippet: z.string().describe('The matching passage, plain text.'),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z.object({
  hits: z.array(SearchHitSchema).describe('Best first.'),
  next_page: z.int().positive().nullable(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;
