/**
 * The family-graph contract (`GET /api/conversations/{id}/graph`), shared by the server, the studio and
 * REST clients. JSON is snake_case; ids are designed so the React Flow mapping is a projection:
 * a node id is `"{thread_id}:{turn_index}"`, an edge id is `"{source}->{target}"`.
 * docs/branching.md, "The family graph".
 */
import { z } from 'zod';
import { ChangeSummarySchema } from '../compare/contracts';

const TurnIndexSchema = z.int().nonnegative();
const IsoTimestampSchema = z.iso.datetime({ offset: true });

/**
 * How the step's reply ended: `stopped` when the client went away mid-reply (the user pressed Stop or
 * closed the page), `interrupted` when the server stopped or another process took the turn over,
 * `failed` when the model failed; null while the step has no reply.
 */
export const GraphReplyStatusSchema = z.enum(['complete', 'stopped', 'interrupted', 'failed']);
export type GraphReplyStatus = z.infer<typeof GraphReplyStatusSchema>;

/** One owned turn of one thread: a commit of the whole workspace. */
export const GraphNodeSchema = z.object({
  id: z.string().describe('"{thread_id}:{turn_index}"'),
  thread_id: z.string(),
  turn_index: TurnIndexSchema,
  user_message: z.string().nullable().describe('Preview of the user message that opened the turn.'),
  reply_preview: z.string().nullable().describe("Preview of the agent's reply, null while none."),
  reply_status: GraphReplyStatusSchema.nullable().describe('How the reply ended; null while none.'),
  tool_count: z.int().nonnegative(),
  captured_at: IsoTimestampSchema.describe('When the turn started (its snapshot was captured).'),
  artifact_count: z.int().nonnegative(),
  change_summary: ChangeSummarySchema.nullable().describe('What the step changed (stored once per step); null until computed.'),
  discarded_count: z.int().nonnegative().describe('Preferences and todos discarded at this step.'),
  applied_from: z
    .string()
    .nullable()
    .describe('On an apply step, the node id its items came from (shown in the answer or not); null on other steps.'),
  is_on_active_path: z
    .boolean()
    .describe("On the requested thread's lineage: its own nodes plus each ancestor's up to the fork."),
  label: z.string().describe('Path-wide step label, `${turn_index}${suffix}` (e.g. "4.1").'),
});
export type GraphNode = z.infer<typeof GraphNodeSchema>;

export const GraphEdgeKindSchema = z.enum(['turn', 'branch', 'apply', 'cite']);
export type GraphEdgeKind = z.infer<typeof GraphEdgeKindSchema>;

/**
 * `turn`: consecutive owned turns of one thread. `branch`: parent's branch-point node → child's first
 * turn. These two make the family a tree: each node has at most one of them coming in. `apply`: the
 * step items were brought from → the apply step (docs/branching.md, "Apply"); an extra, non-tree
 * edge, so an apply step has two incoming edges. `cite`: a step whose reply read another path's step
 * (`read_path`) ← that step; provenance like `apply`. Layout and path walks ignore both.
 */
export const GraphEdgeSchema = z.object({
  id: z
    .string()
    .describe('"{source}->{target}"; an apply edge\'s is "apply:{source}->{target}", a citation\'s "cite:{source}->{target}" (either may join the same two nodes as a turn edge)'),
  source: z.string(),
  target: z.string(),
  kind: GraphEdgeKindSchema,
  reason: z
    .string()
    .nullable()
    .describe("The child branch's reason on a branch edge; the applied items' summary on an apply edge (\"section Findings, objective\"); null on turn edges."),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;

/** Every visible thread of the family, including branches that own no turn yet (drawn as stubs). */
export const GraphThreadSchema = z.object({
  thread_id: z.string(),
  parent_thread_id: z.string().nullable(),
  branch_point_turn: TurnIndexSchema.nullable().describe('The parent turn k; the thread owns turns > k.'),
  reason: z.string().nullable(),
  title: z.string(),
  starred: z.boolean().describe('Marked by its owner.'),
  archived: z
    .boolean()
    .describe('Put away by its owner; present only with include_archived or on the requested lineage.'),
  created_at: IsoTimestampSchema,
  is_deleted: z
    .boolean()
    .describe('Soft-deleted; present only when it is an ancestor of the requested thread.'),
  suffix: z.string().describe('Path suffix of this thread\'s labels ("" for the root path, ".2", ".1.1").'),
  owned_turn_count: z
    .int()
    .nonnegative()
    .describe('Turns this thread owns, counted before truncation; 0 means a freshly opened path (a stub).'),
});
export type GraphThread = z.infer<typeof GraphThreadSchema>;

export const FamilyGraphSchema = z.object({
  thread_id: z.string().describe('The requested thread.'),
  root_thread_id: z.string().describe('The family root; its parent (if any) is outside the family.'),
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
  threads: z.array(GraphThreadSchema),
  truncated: z.boolean().describe('True when the node cap dropped the oldest nodes.'),
});
export type FamilyGraph = z.infer<typeof FamilyGraphSchema>;

export const GraphExportFormatSchema = z.enum(['graphml', 'mermaid', 'dot']);
export type GraphExportFormat = z.infer<typeof GraphExportFormatSchema>;

export function graphNodeId(threadId: string, turnIndex: number): string {
  return `${threadId}:${turnIndex}`;
}

export function graphEdgeId(source: string, target: string): string {
  return `${source}->${target}`;
}

/** An apply edge's id: its own namespace, since an apply from a step's own predecessor joins the same two nodes as the turn edge. */
export function applyEdgeId(source: string, target: string): string {
  return `apply:${source}->${target}`;
}

/**
 * An apply or citation edge: it links two steps by what one took from the other, not as a tree edge
 * (a step's parent). Layouts, the displayed path and arrow-key walks leave it out.
 */
export function isProvenanceEdge(kind: string | undefined): kind is 'apply' | 'cite' {
  return kind === 'apply' || kind === 'cite';
}

/** A citation edge's id (the cited step → the step whose reply read it), in a namespace of its own. */
export function citeEdgeId(source: string, target: string): string {
  return `cite:${source}->${target}`;
}
