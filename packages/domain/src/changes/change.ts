// The change log's vocabulary (DESIGN.md "The write path and the family channel"):
// every workspace change, from any source, is one row with a gapless per-thread `seq`.
import type { DocPatch } from './doc-patch';

/** Who made a change: a person (with their user id), the agent (with its tool call id), or the system. */
export type ChangeActor = 'person' | 'agent' | 'system';

/**
 * Through what it came. An apply names its source node (`"{thread_id}:{turn_index}"`); `retry` is a
 * retry taking back the changes of the attempt it answers again (docs/branching.md, "Retry in place").
 */
export type ChangeVia = 'editor' | 'agent_tool' | 'apply' | 'preview_edit' | 'import' | 'migration' | 'retry';

export type ChangeItemKind = 'objective' | 'document' | 'document_title' | 'preference' | 'todo' | 'artifact';

/**
 * The document body's `before`: the version it was made on and the texts its patch deleted, in order
 * (`revertDocPatch`), so a stale base is rebuilt by walking back from the live text over the few
 * changes since, never by replaying the whole log.
 */
export interface DocumentBodyBefore {
  version: number;
  deleted?: string[];
}

/**
 * The document body's change: `before`/`after` carry versions, the patch (never two bodies) and, for
 * text brought by an apply, the authors of the inserted text (`attribution`, offsets into the
 * concatenated inserted text of the patch, in order), so applied text keeps its original author.
 */
export interface DocumentBodyAfter {
  version: number;
  patch: DocPatch;
  attribution?: Array<{ start: number; end: number; author: string; turn: number | null; seq: number | null; thread_id?: string; user_id?: string }>;
}
