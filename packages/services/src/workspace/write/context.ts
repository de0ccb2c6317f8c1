// What every internal mutation of the write path receives: the transaction that holds
// the thread's lock, who is writing, and the list the mutation appends its change rows to. Only
// `write-workspace.ts` makes one; the modules of this folder are the write path's internals.
import type { ChangeActor, ChangeItemKind, ChangeVia, DocumentUpdate } from '@trellis/domain';
import type { Tx } from '../thread-lock';

/** Who writes and through what (the change rows' `actor`, `actor_id`, `via`, `via_source`). */
export interface ChangeAuthor {
  actor: ChangeActor;
  /** The person's user id, or the agent's tool call id. */
  actorId: string | null;
  via: ChangeVia;
  /** An apply's source node (`{thread_id}:{turn}`). */
  viaSource?: string | null;
}

/** A change row before it has its `seq`: the write path numbers and appends them in one statement. */
export interface ChangeDraft {
  kind: ChangeItemKind;
  key: string | null;
  op: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The person may edit a locked preference; the agent may not (the lock binds the agent only). */
export type Editor = 'person' | 'agent';

export interface WriteContext {
  tx: Tx;
  threadId: string;
  editor: Editor;
  drafts: ChangeDraft[];
  /**
   * The document versions this write made, as live editors receive them (the patch and the length
   * of the text it applies to): published with the change so an editor on any process takes them
   * without reading the log.
   */
  documentUpdates: DocumentUpdate[];
}
