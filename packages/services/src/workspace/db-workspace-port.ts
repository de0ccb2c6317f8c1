// The agent's WorkspacePort on Postgres, bound to one thread and one turn. It
// applies the same mutations as the REST services (one module, never written
// twice), each in its own short transaction under the thread lock. Whatever the
// mutations refuse (a locked preference, an unknown id, a bad depth) goes back
// to the model as a ToolRefusal; infrastructure errors fail the run.
import { isAppError, type Workspace } from '@trellis/domain';
import { ToolRefusal, type WorkspacePort, type WorkspaceView } from '@trellis/agent';
import type { Db } from '@trellis/db';
import { insertArtifact } from './artifact-mutations';
import { appendToDocument, replaceDocumentSection, setObjective, writeDocument } from './document-mutations';
import { changePreference, deletePreferenceRow, insertPreference } from './preference-mutations';
import { readLiveWorkspace } from './read-live-workspace';
import { withThreadLock, type Tx } from './thread-lock';
import { changeTodo, deleteTodoRow, insertTodo } from './todo-mutations';

/**
 * `opening`: the workspace as the turn's opening transaction read it (without artifact bodies), which
 * the agent's first read takes instead of a round trip of its own (a turn's first model call always
 * reads the workspace). Any write through the port drops it; a manual edit that lands in between is
 * seen by the next read, as it would be had the first read been a few milliseconds earlier.
 */
export function createDbWorkspacePort(
  db: Db,
  turn: { threadId: string; turnIndex: number },
  options: { opening?: Workspace } = {},
): WorkspacePort {
  const { threadId, turnIndex } = turn;
  const readView = async (): Promise<WorkspaceView> => viewOf(await readLiveWorkspace(db, threadId, { artifactContent: false }));
  let ahead: Promise<WorkspaceView> | undefined = options.opening && Promise.resolve(viewOf(options.opening));
  const mutate = <T>(fn: (tx: Tx) => Promise<T>) => {
    ahead = undefined;
    return refuseAppErrors(() => withThreadLock(db, threadId, fn));
  };
  return {
    read: (): Promise<WorkspaceView> => {
      const view = ahead ?? readView();
      ahead = undefined;
      return view;
    },
    setObjective: (text) => mutate((tx) => setObjective(tx, threadId, text)),
    replaceDocument: ({ content, title }) => mutate((tx) => writeDocument(tx, threadId, { content, title })),
    appendDocument: (text) => mutate((tx) => appendToDocument(tx, threadId, text)),
    replaceSection: (input) => mutate((tx) => replaceDocumentSection(tx, threadId, input)),
    addPreference: ({ text }) =>
      mutate(async (tx) => ({ id: (await insertPreference(tx, threadId, { text })).id })),
    updatePreference: ({ id, text }) =>
      mutate(async (tx) => void (await changePreference(tx, threadId, id, { text }, 'agent'))),
    removePreference: ({ id }) => mutate((tx) => deletePreferenceRow(tx, threadId, id, 'agent')),
    addTodo: ({ text, depth }) => mutate(async (tx) => ({ id: (await insertTodo(tx, threadId, { text, depth })).id })),
    updateTodo: ({ id, ...patch }) => mutate(async (tx) => void (await changeTodo(tx, threadId, id, patch))),
    removeTodo: ({ id }) => mutate((tx) => deleteTodoRow(tx, threadId, id, 'agent')),
    createArtifact: (input) => mutate((tx) => insertArtifact(tx, threadId, turnIndex, input)),
  };
}

/** What the agent sees of a live workspace. */
function viewOf(live: Workspace): WorkspaceView {
  return {
    objective: live.objective,
    document: live.document,
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
