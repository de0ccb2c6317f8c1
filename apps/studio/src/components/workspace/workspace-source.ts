import type { UpdatePreference, UpdateTodo, Workspace } from '@trellis/domain';

/**
 * Everything the workspace panel can do, independent of where the workspace
 * lives. The live thread implements it with REST mutations (use-live-workspace);
 * a previewed past step implements it on local state, so the same
 * panel edits either without knowing which.
 */
export interface WorkspaceActions {
  setObjective: (text: string | null) => void;
  setDocumentTitle: (title: string) => void;
  /**
   * Resolves once the content is stored; the autosaving editor awaits it. `baseVersion` is the
   * document version the text was edited from: the live thread answers the text as saved (merged
   * with edits made meanwhile) and its version, or rejects with a `conflict` ApiError whose details
   * hold the current document. A local (previewed) workspace resolves with nothing.
   */
  saveDocumentContent: (content: string, baseVersion?: number) => Promise<SavedDocument | void>;
  addPreference: (text: string) => void;
  updatePreference: (id: string, patch: UpdatePreference) => void;
  removePreference: (id: string) => void;
  reorderPreferences: (ids: string[]) => void;
  addTodo: (text: string, depth: number) => void;
  updateTodo: (id: string, patch: UpdateTodo) => void;
  removeTodo: (id: string) => void;
  reorderTodos: (ids: string[]) => void;
}

export interface SavedDocument {
  content: string;
  version: number;
}

export type WorkspaceStatus = 'idle' | 'loading' | 'error' | 'ready';

export interface WorkspaceSource {
  /** What is shown (a thread id, later thread@step); editors remount when it changes. */
  key: string | null;
  status: WorkspaceStatus;
  workspace: Workspace | undefined;
  error: unknown;
  retry: () => void;
  actions: WorkspaceActions;
}

/** Items created optimistically carry this id prefix until the server's row arrives. */
export const PENDING_ID_PREFIX = 'pending-';

export function isPendingId(id: string): boolean {
  return id.startsWith(PENDING_ID_PREFIX);
}
