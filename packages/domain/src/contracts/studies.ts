// Studies (docs/studies.md): the researcher's side (a study, its conditions, its participants,
// one dataset) and the participant's (the open link: consent, a session, finish).
import { z } from 'zod';
import { IsoDateSchema, StorableStringSchema } from './common';

/** The agent's tools a condition may keep (a subset narrows what the agent can do for its participants). */
export const STUDY_AGENT_TOOLS = [
  'set_objective',
  'write_document',
  'replace_section',
  'add_preference',
  'update_preference',
  'remove_preference',
  'add_todo',
  'update_todo',
  'complete_todo',
  'remove_todo',
  'create_artifact',
] as const;

const Text = (max: number) => StorableStringSchema.pipe(z.string().max(max, `must be at most ${max} characters`));
const Name = StorableStringSchema.pipe(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'));
const Minutes = z.int('must be a whole number').min(1, 'must be at least 1').max(10_080, 'must be at most a week (10080)');

export const StudyStatusSchema = z.enum(['draft', 'open', 'closed']).describe('`draft` (editable) → `open` (admits participants) → `closed`');
export type StudyStatus = z.infer<typeof StudyStatusSchema>;

export const ParticipantStatusSchema = z.enum(['consented', 'active', 'finished', 'timed_out', 'withdrawn']);
export type ParticipantStatus = z.infer<typeof ParticipantStatusSchema>;

export const StudySeedSchema = z
  .object({
    objective: Text(2_000).nullable().default(null),
    document: z
      .object({ title: Text(300).default('Untitled'), content: Text(200_000).default('') })
      .strict()
      .default({ title: 'Untitled', content: '' }),
    preferences: z
      .array(z.object({ text: Name.pipe(z.string().max(2_000)), locked: z.boolean().default(false) }).strict())
      .max(100)
      .default([]),
    todos: z
      .array(z.object({ text: Name.pipe(z.string().max(2_000)), done: z.boolean().default(false), depth: z.int().min(0).max(3).default(0) }).strict())
      .max(200)
      .default([]),
  })
  .strict()
  .describe('the workspace every participant starts from');
export type StudySeed = z.infer<typeof StudySeedSchema>;

export const StudyConditionInputSchema = z
  .object({
    name: Name,
    model: Name.describe('one of the models this server is configured for (`offline` always)'),
    system_prompt: Text(20_000).nullable().optional().describe("added to the agent's instructions on every turn of this condition"),
    tools: z.array(z.enum(STUDY_AGENT_TOOLS)).max(STUDY_AGENT_TOOLS.length).nullable().optional().describe("the agent's tools this condition keeps; omitted or null: all"),
    branching: z.boolean().describe('false: a linear studio (no continue from here, no edit or regenerate siblings)'),
    weight: z.int().min(1).max(100).default(1).describe('assignment balances participants by weight'),
  })
  .strict();
export type StudyConditionInput = z.infer<typeof StudyConditionInputSchema>;

const CompletionSchema = z
  .object({
    code: Text(200).nullable().optional(),
    redirect_url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2_000).nullable().optional(),
  })
  .strict();

const StudyFields = {
  title: Name,
  consent: Text(50_000).default('').describe('Markdown shown before joining'),
  instructions: Text(50_000).default('').describe("Markdown shown in the participant's studio"),
  seed: StudySeedSchema.default({ objective: null, document: { title: 'Untitled', content: '' }, preferences: [], todos: [] }),
  conditions: z
    .array(StudyConditionInputSchema)
    .min(1, 'must name at least one condition')
    .max(20)
    .refine((list) => new Set(list.map((c) => c.name)).size === list.length, 'must have distinct names'),
  time_limit_minutes: Minutes.nullable().optional(),
  min_minutes: Minutes.nullable().optional().describe('how long before Finish is accepted'),
  completion: CompletionSchema.optional(),
};

export const CreateStudySchema = z.object(StudyFields).strict();
export type CreateStudy = z.infer<typeof CreateStudySchema>;

export const UpdateStudySchema = z
  .object({
    title: StudyFields.title.optional(),
    consent: Text(50_000).optional(),
    instructions: Text(50_000).optional(),
    seed: StudySeedSchema.optional(),
    conditions: StudyFields.conditions.optional(),
    time_limit_minutes: Minutes.nullable().optional(),
    min_minutes: Minutes.nullable().optional(),
    completion: CompletionSchema.optional(),
    status: StudyStatusSchema.optional().describe('moves `draft → open → closed`; every other field edits a draft only'),
  })
  .strict();
export type UpdateStudy = z.infer<typeof UpdateStudySchema>;

export const StudyConditionSchema = z.object({
  name: z.string(),
  model: z.string(),
  system_prompt: z.string().nullable(),
  tools: z.array(z.string()).nullable(),
  branching: z.boolean(),
  weight: z.int(),
  participants: z.int().nonnegative().describe('participants assigned (withdrawn ones included)'),
});

export const StudySchema = z.object({
  study_id: z.string(),
  title: z.string(),
  status: StudyStatusSchema,
  join_url: z.string().describe('`/join/s/{slug}`: the one link every participant opens (accepts `?pid=` and the Prolific names)'),
  consent: z.string(),
  instructions: z.string(),
  seed: StudySeedSchema,
  conditions: z.array(StudyConditionSchema),
  time_limit_minutes: z.int().nullable(),
  min_minutes: z.int().nullable(),
  completion: z.object({ code: z.string().nullable(), redirect_url: z.string().nullable() }),
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
});
export type Study = z.infer<typeof StudySchema>;

export const StudyCreatedSchema = z.object({ study_id: z.string(), status: z.literal('draft'), join_url: z.string() });
export type StudyCreated = z.infer<typeof StudyCreatedSchema>;

export const StudySummarySchema = StudySchema.pick({ study_id: true, title: true, status: true, join_url: true, created_at: true }).extend({
  participants: z.int().nonnegative(),
});
export const StudyListSchema = z.object({ studies: z.array(StudySummarySchema).describe("the caller's studies, newest first") });
export type StudyList = z.infer<typeof StudyListSchema>;

const ExternalId = StorableStringSchema.pipe(z.string().trim().min(1).max(200, 'must be at most 200 characters'));

export const JoinStudySchema = z
  .object({
    consent: z.boolean().describe('must be true: declining stores nothing'),
    pid: ExternalId.optional().describe('the participant id from the link (`?pid=`); the same pid resumes the same family'),
    PROLIFIC_PID: ExternalId.optional(),
    STUDY_ID: ExternalId.optional(),
    SESSION_ID: ExternalId.optional(),
  })
  .strict();
export type JoinStudy = z.infer<typeof JoinStudySchema>;

export const StudyJoinedSchema = z.object({
  thread_id: z.string().describe("the participant's family (the condition is never shown)"),
});
export type StudyJoined = z.infer<typeof StudyJoinedSchema>;

export const StudyCompletionSchema = z.object({
  code: z.string().nullable(),
  redirect_url: z.string().nullable(),
});
export type StudyCompletion = z.infer<typeof StudyCompletionSchema>;

export const StudyParticipantSchema = z.object({
  participant_id: z.string().describe('pseudonymous; the pid is never shown here'),
  thread_id: z.string().nullable().describe('their family; null once withdrawn'),
  condition: z.string().describe("the condition's name"),
  status: ParticipantStatusSchema,
  started: IsoDateSchema,
  finished: IsoDateSchema.nullable(),
  active_minutes: z.number().nonnegative().describe('from joining to the last activity'),
  steps: z.int().nonnegative(),
  paths: z.int().nonnegative(),
  words: z.object({ participant: z.int().nonnegative(), agent: z.int().nonnegative(), agent_edited: z.int().nonnegative() }),
  last_activity: IsoDateSchema,
});
export type StudyParticipant = z.infer<typeof StudyParticipantSchema>;

export const StudyParticipantListSchema = z.object({
  participants: z.array(StudyParticipantSchema),
  counts: z.record(z.string(), z.int().nonnegative()).describe('participants per condition name (withdrawn ones left out)'),
});
export type StudyParticipantList = z.infer<typeof StudyParticipantListSchema>;

export const StudyExportQuerySchema = z.object({
  format: z.literal('dataset'),
  include_pid: z.enum(['true', 'false']).default('false').transform((v) => v === 'true').describe('adds the `pid` column to `participants`'),
});

export const StudyLandingSchema = z.object({
  title: z.string(),
  consent: z.string().describe('Markdown shown before joining'),
  status: z.enum(['open', 'closed']).describe('a closed study admits no one new'),
});
export type StudyLanding = z.infer<typeof StudyLandingSchema>;

export const ParticipantViewSchema = z.object({
  thread_id: z.string().describe("the participant's family"),
  title: z.string(),
  instructions: z.string().describe('Markdown'),
  status: ParticipantStatusSchema.exclude(['withdrawn']),
  started: IsoDateSchema,
  time_limit_minutes: z.int().nullable(),
  min_minutes: z.int().nullable(),
  branching: z
    .boolean()
    .describe('false: the studio offers no continue from here, edit or regenerate (the server refuses them with 403 `branching_disabled`)'),
  completion: StudyCompletionSchema.nullable().describe('once finished: the completion code and redirect'),
});
export type ParticipantView = z.infer<typeof ParticipantViewSchema>;
