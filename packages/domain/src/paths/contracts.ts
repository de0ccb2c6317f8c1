// Another path in the conversation: a message names steps of other paths of its family (`refs`), the
// agent reads them with `read_path`, and its reply names what it read (`citations`). Nothing of another
// path reaches the model unless a message names it.
import { z } from 'zod';

/** How many steps one message may bring in. */
export const MAX_MESSAGE_REFS = 8;

/** What a client sends: a step of a path of the family; `turn` defaults to the path's latest. */
export const PathRefInputSchema = z
  .object({
    thread_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'is not an id').describe('a path of this family'),
    turn: z
      .int('must be a whole number')
      .min(1, 'must be 1 or greater')
      .optional()
      .describe('the step on that path; omitted: the path’s latest step'),
  })
  .strict();
export type PathRefInput = z.infer<typeof PathRefInputSchema>;

/** A referenced (or cited) step as stored and answered: with its label as the family graph showed it. */
export const PathRefSchema = z.object({
  thread_id: z.string(),
  turn: z.int().min(1),
  label: z.string().describe('the step’s label when the message was stored, e.g. "4.1"'),
});
export type PathRef = z.infer<typeof PathRefSchema>;

/** A stored (or picked) reference sent again as input: the step it names, nothing else (the label is the server's). */
export function toPathRefInput(ref: Pick<PathRef, 'thread_id' | 'turn'>): PathRefInput & { turn: number } {
  return { thread_id: ref.thread_id, turn: ref.turn };
}

/** A reference as stored and answered: only its {@link PathRef} fields, whatever else the value carries (a path's title). */
export function toPathRef(ref: PathRef): PathRef {
  return { thread_id: ref.thread_id, turn: ref.turn, label: ref.label };
}

/** The agent's tool that reads a referenced step (the agent offers it; a path link hides what it read). */
export const READ_PATH_TOOL = 'read_path';

export const READ_PATH_PARTS = ['document', 'items', 'messages'] as const;
export type ReadPathPart = (typeof READ_PATH_PARTS)[number];

/** The `read_path` tool's arguments (the agent's schema is this one, described for the model). */
export const ReadPathArgsSchema = z.object({
  thread_id: z.string().trim().min(1).describe('the referenced path’s thread_id, as the message lists it'),
  turn: z.int().min(1).describe('the referenced step, as the message lists it'),
  part: z
    .enum(READ_PATH_PARTS)
    .optional()
    .describe('only one part: "document", "items" (objective, preferences, todos, artifacts) or "messages" (the transcript up to the step); omitted: all three, in that order'),
});
export type ReadPathArgs = z.infer<typeof ReadPathArgsSchema>;
