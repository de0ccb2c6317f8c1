// The agent's WorkspacePort on Postgres, bound to one thread and one turn. Every write goes through
// the write path (`writeWorkspace`: actor `agent`, the tool call's id, via `agent_tool`), each in its
// own short transaction under the thread lock, always against the current text — so a person's edit
// that lands between two tool calls survives the agent's next append. Whatever the write path
// refuses (a locked preference, an unknown id, a bad depth) goes back to the model as a ToolRefusal;
// infrastructure errors fail the run.
import { isAppError, type Workspace } from '@trellis/domain';
import { ToolRefusal, type WorkspacePort, type WorkspaceView } from '@trellis/agent';
import type { Db } from '@trellis/db';
import { readLiveWorkspace } from './read-live-workspace';
import { writeWorkspace, type WorkspaceEdit } from './write-workspace';

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

  const portFor = (toolCallId: string | null): WorkspacePort => {
    const write = async <const E extends WorkspaceEdit>(edit: E, copied?: string) => {
      ahead = undefined;
      const viaSource = copied === undefined ? null : (options.sourceOf?.(copied) ?? null);
      const author = { actor: 'agent', actorId: toolCallId, via: 'agent_tool', ...(viaSource !== null && { viaSource }) } as const;
      const { outcomes } = await refuseAppErrors(() => writeWorkspace({ db }, { threadId, author, edits: [edit] as const }));
      return outcomes[0];
    };
    return {
      read: (): Promise<WorkspaceView> => {
        const view = ahead ?? readView();
        ahead = undefined;
        return view;
      },
      setObjective: async (text) => void (await write({ kind: 'objective', text })),
      replaceDocument: async ({ content, title }) => void (await write({ kind: 'document', content, title }, content)),
      appendDocument: async (text) => void (await write({ kind: 'document_append', text }, text)),
      replaceSection: async ({ heading, content }) => void (await write({ kind: 'document_section', heading, content }, content)),
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
