import { z } from 'zod';
import { PG_INT_MAX } from './common';

/** `GET /api/conversations/{id}/authorship?turn=k`. */
export const AuthorshipQuerySchema = z.object({
  turn: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, 'must be 0 or greater')
    .max(PG_INT_MAX, 'must be at most 2147483647')
    .optional()
    .describe('the document after step k (the snapshot(k+1)-or-live rule); omitted: the live document'),
  changes_after: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, 'must be 0 or greater')
    .max(PG_INT_MAX, 'must be at most 2147483647')
    .optional()
    .describe(
      'list in `changes` only the named changes with a greater `seq` (a client that keeps the details of the ones it has seen asks for the new ones only); omitted: every named change',
    ),
});
export type AuthorshipQuery = z.infer<typeof AuthorshipQuerySchema>;

export const AuthorshipSpanSchema = z.object({
  start: z.int().nonnegative().describe('UTF-16 offset into the document body'),
  end: z.int().positive().describe('UTF-16 offset, exclusive; spans are in order and cover the body exactly'),
  author: z
    .enum(['person', 'agent', 'agent_edited', 'unknown'])
    .describe(
      '`agent_edited`: a sentence, heading, list item or table cell the agent wrote and a person changed (the whole unit); ' +
        '`unknown`: text written before the change log (never a guess)',
    ),
  turn: z
    .int()
    .nonnegative()
    .nullable()
    .describe('the step the text came from (for applied text: its step on the source path)'),
  seq: z
    .int()
    .positive()
    .nullable()
    .describe(
      'the change it came from: its path-wide `seq`, as `GET …/changes` lists it (applied text: its `seq` on `thread_id`)',
    ),
  via: z
    .enum(['apply', 'cite'])
    .optional()
    .describe('`apply`: the text was brought by an apply; `cite`: the agent copied it from a step of another path it read (`read_path`)'),
  source: z.string().optional().describe('the apply’s source node, or the cited step (`{thread_id}:{turn}`)'),
  thread_id: z.string().optional().describe('applied text: the thread its `turn` and `seq` belong to'),
  user_id: z.string().optional().describe('on a person’s text (and agent text a person edited): who wrote it'),
});

export const AuthorshipSummarySchema = z.object({
  person_words: z.int().nonnegative(),
  agent_words: z.int().nonnegative(),
  agent_edited_words: z.int().nonnegative(),
  unknown_words: z.int().nonnegative(),
});

export const AuthorshipChangeSchema = z.object({
  seq: z.int().positive().describe('the change’s path-wide `seq`, as the spans name it'),
  turn: z.int().nonnegative().describe('the step it belongs to'),
  actor: z.enum(['person', 'agent', 'system']),
  at: z.string().describe('when it was made (ISO 8601)'),
  tool_call: z
    .object({
      id: z.string(),
      name: z.string().nullable().describe('the tool’s name; null when no stored reply holds the call'),
    })
    .nullable()
    .describe('the agent’s tool call that made the change; null for a person’s or the system’s'),
});
export type AuthorshipChange = z.infer<typeof AuthorshipChangeSchema>;

export const AuthorshipSchema = z.object({
  version: z.int().nonnegative().describe('the document version the spans describe'),
  spans: z.array(AuthorshipSpanSchema),
  steps: z
    .array(
      z.object({
        turn: z.int().nonnegative(),
        label: z.string().describe('the step’s label, as the family graph shows it'),
      }),
    )
    .describe('the steps of this path that the spans name (applied text names steps of its source)'),
  sources: z
    .array(
      z.object({
        node_id: z
          .string()
          .describe('a step the spans name: an apply’s `source`, where applied text was written (`{thread_id}:{turn}`), or the step cited text was copied from'),
        label: z.string().describe('the step’s label, as the family graph shows it'),
        path_title: z.string().describe('the title of the path the step belongs to'),
      }),
    )
    .describe('the steps of other paths that applied and cited text name, by label and path title (what the hover shows, never an id: "Agent, from 4.1")'),
  summary: AuthorshipSummarySchema.describe(
    'words (Unicode word segmentation) by the author of their first character',
  ),
  people: z
    .array(
      z.object({
        user_id: z.string(),
        name: z.string().describe('the person’s name as they gave it'),
        words: z.int().nonnegative().describe('the words of their own text in this document (agent text they edited aside)'),
      }),
    )
    .describe(
      'the people whose text the spans name (`user_id` on a person’s span), in order of first appearance: the overlay gives each a colour and a name',
    ),
  changes: z
    .array(AuthorshipChangeSchema)
    .describe(
      'the changes the spans name (applied text aside), in `seq` order: what hovering a span shows besides its step',
    ),
});
export type Authorship = z.infer<typeof AuthorshipSchema>;
