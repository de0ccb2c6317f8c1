// What a path link shows, built from the family's reads by keeping only what belongs to the path
// (docs/sharing.md, "What a link shows"). Every output object is made anew from named fields of
// its input, never spread: a field added to a contract later stays out of a shared answer until it
// is listed here. Ids of other threads never pass: the path's inherited steps are re-keyed to the
// shared thread, applied text and apply entries lose their source, and so do cited text and the
// agent's reads of other paths.
import type { Authorship } from '../contracts/authorship';
import type { Change } from '../contracts/changes';
import type { Message, ToolCall } from '../contracts/messages';
import type { FamilyGraph, GraphNode } from '../graph/contracts';
import { READ_PATH_TOOL } from '../paths/contracts';

/** The family graph cut down to one path: its steps up to `turn`, all on the shared thread. */
export function pathGraph(graph: FamilyGraph, threadId: string, turn: number): FamilyGraph {
  const shared = graph.threads.find((thread) => thread.thread_id === threadId);
  const nodes: GraphNode[] = graph.nodes
    .filter((node) => node.is_on_active_path && node.turn_index <= turn)
    .sort((a, b) => a.turn_index - b.turn_index)
    .map((node) => ({
      id: `${threadId}:${node.turn_index}`,
      thread_id: threadId,
      turn_index: node.turn_index,
      user_message: node.user_message,
      reply_preview: node.reply_preview,
      reply_status: node.reply_status,
      tool_count: node.tool_count,
      captured_at: node.captured_at,
      artifact_count: node.artifact_count,
      change_summary: node.change_summary,
      discarded_count: node.discarded_count,
      applied_from: null,
      is_on_active_path: true,
      label: node.label,
    }));
  const edges = nodes.slice(1).map((node, i) => {
    const source = nodes[i]!.id;
    return { id: `${source}->${node.id}`, source, target: node.id, kind: 'turn' as const, reason: null };
  });
  return {
    thread_id: threadId,
    root_thread_id: threadId,
    nodes,
    edges,
    threads: [
      {
        thread_id: threadId,
        parent_thread_id: null,
        branch_point_turn: null,
        reason: null,
        title: shared?.title ?? '',
        starred: false,
        archived: false,
        created_at: shared?.created_at ?? nodes[0]?.captured_at ?? new Date(0).toISOString(),
        is_deleted: false,
        suffix: shared?.suffix ?? '',
        owned_turn_count: nodes.length,
      },
    ],
    truncated: graph.truncated,
  };
}

/** The path's transcript with inherited turns re-keyed to the shared thread; apply entries name no source. */
export function pathMessages(messages: readonly Message[], threadId: string): Message[] {
  return messages.map((m) => {
    const kept: Message = {
      id: m.id,
      thread_id: threadId,
      turn_index: m.turn_index,
      role: m.role,
      content: m.kind === 'apply' && m.provenance ? appliedContent(m.provenance.items, m.provenance.note) : m.content,
      tool_calls: m.tool_calls.map(pathToolCall),
      status: m.status,
      created_at: m.created_at,
    };
    if (m.kind !== undefined) kept.kind = m.kind;
    if (m.reason !== undefined) kept.reason = m.reason;
    if (m.reason_code !== undefined) kept.reason_code = m.reason_code;
    if (m.retry_after_s !== undefined) kept.retry_after_s = m.retry_after_s;
    if (m.attempt !== undefined) kept.attempt = m.attempt;
    if (m.compacted_before !== undefined) kept.compacted_before = m.compacted_before;
    return kept;
  });
}

/**
 * A tool call as a path link shows it: a read of another path keeps its place in the reply but not
 * which path it read or what it found there (the reply's own words stay as written).
 */
function pathToolCall(call: ToolCall): ToolCall {
  if (call.name !== READ_PATH_TOOL) return call;
  return {
    id: call.id,
    name: call.name,
    args: {},
    result: 'A step of another path of this conversation, not part of this link.',
    ...(call.is_error !== undefined && { is_error: call.is_error }),
  };
}

function appliedContent(items: readonly string[], note: string | null): string {
  const head = `Applied from another path: ${items.join(', ')}`;
  return note ? `${head}\n\n${note}` : head;
}

/**
 * Authorship of the shown document for a path link: applied text keeps its author but not its
 * source (no step or change of another path), cited text stays the agent's at its step on this path
 * without the step it was copied from, and only the path's own steps are named.
 */
export function pathAuthorship(authorship: Authorship, graph: FamilyGraph): Authorship {
  const labels = new Map(graph.nodes.map((node) => [node.turn_index, node.label]));
  const spans = authorship.spans.map((span) => {
    const cited = span.via === 'cite' && span.thread_id === undefined;
    const applied = !cited && (span.via === 'apply' || span.thread_id !== undefined || span.source !== undefined);
    return {
      start: span.start,
      end: span.end,
      author: span.author,
      turn: applied ? null : span.turn,
      seq: applied ? null : span.seq,
      ...(applied ? { via: 'apply' as const } : {}),
      ...(cited ? { via: 'cite' as const } : {}),
    };
  });
  const named = new Set(spans.flatMap((span) => (span.turn === null ? [] : [span.turn])));
  return {
    version: authorship.version,
    spans,
    steps: [...named].sort((a, b) => a - b).flatMap((turn) => {
      const label = labels.get(turn);
      return label === undefined ? [] : [{ turn, label }];
    }),
    // Applied and cited text's sources are steps of other paths: a path link names none of them.
    sources: [],
    summary: { ...authorship.summary },
    // Spans here name no person (no `user_id`): a link shows who wrote what by kind, not by account.
    people: [],
    changes: authorship.changes.filter((change) => named.has(change.turn)).map((change) => ({ ...change, tool_call: change.tool_call })),
  };
}

/** A change as a path link shows it: on the shared thread, without an apply's source or a person's id. */
export function pathChange(change: Change, threadId: string): Change {
  return {
    seq: change.seq,
    thread_id: threadId,
    thread_seq: change.thread_seq,
    turn: change.turn,
    actor: change.actor,
    actor_id: null,
    via: change.via,
    via_source: null,
    kind: change.kind,
    key: change.key,
    op: change.op,
    reverted: change.reverted,
    before: withoutSources(change.before),
    after: withoutSources(change.after),
    created_at: change.created_at,
  };
}

/** A step's opening message as a path link shows it: an apply entry names no source step. */
export function pathStepMessage(message: string | null): string | null {
  return message === null ? null : message.replace(/^Applied from [^:\n]*:/, 'Applied from another path:');
}

/** A document change's `attribution` (applied text's authors) keeps who and where in the text, not which path. */
function withoutSources(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('attribution' in value)) return value;
  const { attribution, ...rest } = value;
  if (!Array.isArray(attribution)) return rest;
  return {
    ...rest,
    attribution: attribution.map((part: Record<string, unknown>) => ({ start: part.start, end: part.end, author: part.author })),
  };
}
