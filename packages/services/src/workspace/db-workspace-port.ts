// The agent's WorkspacePort on Postgres, bound to one thread and one turn. Every write goes through
// the write path (`writeWorkspace`: actor `agent`, the tool call's id, via `agent_tool`), each in its
// own short transaction under the thread lock, always against the current text — so a person's edit
// that lands between two tool calls survives the agent's next append. A document tool on the text the
// port knows (the turn's opening read, or its own last write) is one statement instead
// (`writeAgentDocumentAtOnce`), which declines, writing nothing, when the text has moved on since.
// Whatever the write path refuses (a locked preference, an unknown id, a bad depth) goes back to the
// model as a ToolRefusal; infrastructure errors fail the run.
import { isAppError, type Workspace } from '@trellis/domain';
import { ToolRefusal, type WorkspacePort, type WorkspaceView } from '@trellis/agent';
import type { Db } from '@trellis/db';
import { readLiveWorkspace } from './read-live-workspace';
import {
  documentTextAfter,
  writeAgentDocumentAtOnce,
  writeWorkspace,
  type ChangeAuthor,
  type DocumentToolEdit,
  type LiveDocument,
  type WorkspaceEdit,
} from './write-workspace';

/**
 * `opening`: the workspace as the turn's opening transaction read it (without artifact bodies), which
 * the agent's first read takes instead of a round trip of its own (a turn's first model call always
 * reads the workspace). Any write through the port drops it; a manual edit that lands in between is
 * seen by the next read, as it would be had the first read been a few milliseconds earlier.
 */
export function createDbWorkspacePort(
  db: Db,
  turn: { threadId: string; turnIndex: number },
  options: {
    opening?: Workspace;
    /** The cited step a document text was copied from (`{thread_id}:{turn}`), for the change row's `via_source`. */
    sourceOf?: (text: string) => string | null;
  } = {},
): WorkspacePort {
  const { threadId, turnIndex } = turn;
  const readView = async (): Promise<WorkspaceView> => viewOf(await readLiveWorkspace(db, threadId, { artifactContent: false }));
  let ahead: Promise<WorkspaceView> | undefined = options.opening && Promise.resolve(viewOf(options.opening));
  const { document: opened } = options.opening ?? {};
  /** The document as this port last knew it stored: what a document tool's one statement is made on. */
  let known: LiveDocument | undefined = opened?.version === undefined ? undefined : { title: opened.title, content: opened.content, version: opened.version };

  const portFor = (toolCallId: string | null): WorkspacePort => {
    const authorOf = (copied: string | undefined): ChangeAuthor => {
      const viaSource = copied === undefined ? null : (options.sourceOf?.(copied) ?? null);
      return { actor: 'agent', actorId: toolCallId, via: 'agent_tool', ...(viaSource !== null && { viaSource }) };
    };
    const write = async <const E extends WorkspaceEdit>(edit: E, copied?: string) => {
      ahead = undefined;
      const { outcomes } = await refuseAppErrors(() => writeWorkspace({ db }, { threadId, author: authorOf(copied), edits: [edit] as const }));
      return outcomes[0];
    };
    const writeDocument = async (edit: DocumentToolEdit, copied: string): Promise<void> => {
      const next = known && textAfter(known, edit);
      // A title change is a second change row, and no change is nothing to write: the transaction path.
      if (known && next && next.title === known.title && next.content !== known.content) {
        ahead = undefined;
        const taken = await writeAgentDocumentAtOnce(db, { threadId, author: authorOf(copied), known, content: next.content });
        if (taken) {
          known = taken;
          return;
        }
      }
      const { title, content, version } = await write(edit, copied);
      known = { title, content, version };
    };
    return {
      read: (): Promise<WorkspaceView> => {
        const view = ahead ?? readView();
        ahead = undefined;
        return view;
      },
      setObjective: async (text) => void (await write({ kind: 'objective', text })),
      replaceDocument: ({ content, title }) => writeDocument({ kind: 'document', content, title }, content),
      appendDocument: (text) => writeDocument({ kind: 'document_append', text }, text),
      replaceSection: ({ heading, content }) => writeDocument({ kind: 'document_section', heading, content }, content),
      addPreference: async ({ text }) => ({ id: (await write({ kind: 'preference_create', text })).id }),
      updatePreference: async ({ id, text }) => void (await write({ kind: 'preference_update', id, text })),
      removePreference: async ({ id }) => void (await write({ kind: 'preference_delete', id })),
      addTodo: async ({ text, depth }) => ({ id: (await write({ kind: 'todo_create', text, depth })).id }),
      updateTodo: async ({ id, ...patch }) => void (await write({ kind: 'todo_update', id, ...patch })),
      removeTodo: async ({ id }) => void (await write({ kind: 'todo_delete', id })),
      createArtifact: (artifact) => write({ kind: 'artifact_create', turnIndex, artifact }),
      forToolCall: (id) => portFor(id),
    };
  };
  return portFor(null);
}

/** The document a tool's edit makes of `current`. */
function textAfter(current: LiveDocument, edit: DocumentToolEdit): { title: string; content: string } {
  if (edit.kind === 'document') return { title: edit.title ?? current.title, content: edit.content ?? current.content };
  return documentTextAfter(current, edit);
}

/** What the agent sees of a live workspace. */
function viewOf(live: Workspace): WorkspaceView {
  return {
    objective: live.objective,
    document: { title: live.document.title, content: live.document.content },
    preferences: live.preferences.map(({ id, text, locked }) => ({ id, text, locked })),
    todos: live.todos.map(({ id, text, done, depth }) => ({ id, text, done, depth })),
    artifacts: live.artifacts.map(({ id, number, turn_index, kind, title }) => ({ id, number, turn_index, kind, title })),
  };
}

async function refuseAppErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAppError(error) && error.code !== 'internal') throw new ToolRefusal(error.message);
    throw error;
  }
}
