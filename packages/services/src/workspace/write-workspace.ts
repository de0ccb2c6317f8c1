// THE write path (docs/architecture.md "The write path"): every change to a thread's
// workspace — objective, document title and body, preferences, todos, artifacts — from every source
// (the editor, the agent's tools, apply, the edited preview that seeds a branch) goes through
// `writeWorkspace`. In one transaction under the thread's lock it checks base versions (merging a
// stale document save, refusing overlapping edits with 409), applies the edits, appends one change
// row per change with the thread's next gapless `seq`, and publishes them (NOTIFY, delivered at
// commit); a live editor's updates on the current version, and the agent's document tools on the text its
// turn knows, may take the same write as one statement (write/document-updates-at-once.ts). The modules under `./write/` are its internals; nothing else writes workspace tables
// (`no-other-writer.test.ts` fails if anything does).
import type { DocumentUpdate, LivePreference, LiveTodo, LiveWorkspace } from '@trellis/domain';
import type { Db } from '@trellis/db';
import type { ThreadActor } from '../conversations/conversation-access';
import { appendAndPublishChanges } from './publish-change';
import { readLiveWorkspace } from './read-live-workspace';
import { withEditableThreadLock, withThreadLock, type Tx } from './thread-lock';
import { insertArtifact } from './write/artifact-mutations';
import type { ChangeAuthor, WriteContext } from './write/context';
import { editDocument, setObjective, type DocumentEdit, type LiveDocument } from './write/document-mutations';
import { changePreference, deletePreferenceRow, insertPreference, reorderPreferenceRows } from './write/preference-mutations';
import { reconcileState, type ReconcileOptions, type TargetState } from './write/reconcile-state';
import { revertChanges, type RevertEdit, type RevertOutcome } from './write/revert-changes';
import { changeTodo, deleteTodoRow, insertTodo, reorderTodoRows } from './write/todo-mutations';

export type { ChangeAuthor } from './write/context';
export type { LiveDocument } from './write/document-mutations';
export type { TargetState } from './write/reconcile-state';
export type { LaterChange, RevertOutcome } from './write/revert-changes';
export type { DocumentChangeMaker } from './write/document-mutations';
export { writeAgentDocumentAtOnce, writeDocumentUpdatesAtOnce } from './write/document-updates-at-once';
export { documentTextAfter } from './write/document-mutations';

export type WorkspaceEdit =
  | { kind: 'objective'; text: string | null }
  | DocumentEdit
  | { kind: 'preference_create'; text: string; locked?: boolean | undefined }
  | { kind: 'preference_update'; id: string; text?: string | undefined; locked?: boolean | undefined; baseVersion?: number | undefined }
  | { kind: 'preference_delete'; id: string }
  | { kind: 'preference_reorder'; ids: string[] }
  | { kind: 'todo_create'; text: string; depth?: number | undefined; done?: boolean | undefined }
  | {
      kind: 'todo_update';
      id: string;
      text?: string | undefined;
      depth?: number | undefined;
      done?: boolean | undefined;
      baseVersion?: number | undefined;
    }
  | { kind: 'todo_delete'; id: string }
  | { kind: 'todo_reorder'; ids: string[] }
  | { kind: 'artifact_create'; turnIndex: number; artifact: { kind: string; title: string; content: string } }
  /** An apply's planned state, or the edited preview on a new branch: see `reconcileState`. */
  | { kind: 'state'; target: TargetState; options: ReconcileOptions }
  /** Takes some of the thread's changes back on top of what came after them: see `revertChanges`. */
  | RevertEdit;

/** What the agent's document tools write: a whole text, an append, a section. */
export type DocumentToolEdit = Extract<WorkspaceEdit, { kind: 'document' | 'document_append' | 'document_section' }>;

/** What each edit answers, in the order of the edits. */
export type EditOutcome<E extends WorkspaceEdit> = E extends { kind: 'preference_create' | 'preference_update' }
  ? LivePreference
  : E extends { kind: 'todo_create' | 'todo_update' }
    ? LiveTodo
    : E extends { kind: 'preference_reorder' }
      ? LivePreference[]
      : E extends { kind: 'todo_reorder' }
        ? LiveTodo[]
        : E extends { kind: 'artifact_create' }
          ? { id: string; number: number }
          : E extends { kind: 'document_updates' }
            ? LiveDocument & { updates: DocumentUpdate[] }
            : E extends DocumentEdit
              ? LiveDocument
              : E extends RevertEdit
                ? RevertOutcome
              : null;

/**
 * Where the write runs: `{ db }` opens a transaction and takes the thread's lock (after the access
 * rule's 404/403 for an editor when `actor` is given); `{ tx }` is a transaction of the caller that already holds
 * the thread's lock (an apply's turn, a branch's creation, a turn's reply).
 */
export type WriteScope = { db: Db; actor?: ThreadActor | undefined } | { tx: Tx };

export interface WriteResult<E extends readonly WorkspaceEdit[]> {
  outcomes: { [I in keyof E]: EditOutcome<E[I]> };
  /** The change rows' seqs (empty when nothing changed). */
  seqs: number[];
  /** With `readBack`: the live workspace after the write, read in the same transaction. */
  workspace: LiveWorkspace | null;
}

export async function writeWorkspace<const E extends readonly WorkspaceEdit[]>(
  scope: WriteScope,
  input: {
    threadId: string;
    author: ChangeAuthor;
    edits: E;
    readBack?: boolean;
    /** The thread's family was made in this same transaction: nobody hears it yet (no NOTIFY). */
    isNewFamily?: boolean;
  },
): Promise<WriteResult<E>> {
  const { threadId, author } = input;
  const run = async (tx: Tx): Promise<WriteResult<E>> => {
    const ctx: WriteContext = { tx, threadId, editor: author.actor === 'agent' ? 'agent' : 'person', drafts: [], documentUpdates: [] };
    const outcomes: unknown[] = [];
    for (const edit of input.edits) outcomes.push(await applyEdit(ctx, edit));
    const seqs = await appendAndPublishChanges(tx, { threadId, author, drafts: ctx.drafts, documentUpdates: ctx.documentUpdates, silent: input.isNewFamily });
    const workspace = input.readBack ? await readLiveWorkspace(tx, threadId) : null;
    return { outcomes: outcomes as WriteResult<E>['outcomes'], seqs, workspace };
  };
  if ('tx' in scope) return run(scope.tx);
  return scope.actor ? withEditableThreadLock(scope.db, scope.actor, threadId, run) : withThreadLock(scope.db, threadId, run);
}

async function applyEdit(ctx: WriteContext, edit: WorkspaceEdit): Promise<unknown> {
  switch (edit.kind) {
    case 'objective':
      await setObjective(ctx, edit.text);
      return null;
    case 'document':
    case 'document_append':
    case 'document_section':
    case 'document_updates':
      return editDocument(ctx, edit);
    case 'preference_create':
      return insertPreference(ctx, edit);
    case 'preference_update':
      return changePreference(ctx, edit.id, edit);
    case 'preference_delete':
      await deletePreferenceRow(ctx, edit.id);
      return null;
    case 'preference_reorder':
      return reorderPreferenceRows(ctx, edit.ids);
    case 'todo_create':
      return insertTodo(ctx, edit);
    case 'todo_update':
      return changeTodo(ctx, edit.id, edit);
    case 'todo_delete':
      await deleteTodoRow(ctx, edit.id);
      return null;
    case 'todo_reorder':
      return reorderTodoRows(ctx, edit.ids);
    case 'artifact_create':
      return insertArtifact(ctx, edit.turnIndex, edit.artifact);
    case 'state':
      await reconcileState(ctx, edit.target, edit.options);
      return null;
    case 'revert':
      return revertChanges(ctx, edit);
  }
}

/** A person's edit from the studio or a REST client. */
export function editorAuthor(actor: ThreadActor): ChangeAuthor {
  return { actor: 'person', actorId: actor.userId, via: 'editor' };
}
