import {
  LiveWorkspaceSchema,
  WorkspaceSchema,
  type LiveWorkspace,
  type CreatePreference,
  type CreateTodo,
  type PatchWorkspace,
  type UpdatePreference,
  type UpdateTodo,
  type Workspace,
} from '@trellis/domain';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

// Mutations answer with whatever the server chooses; the client re-reads the
// workspace afterwards, so only the read is parsed.
export const workspaceApi = {
  get(threadId: string, signal?: AbortSignal): Promise<Workspace> {
    return apiJson(WorkspaceSchema, apiPaths.workspace(threadId), { signal });
  },
  patch(threadId: string, patch: PatchWorkspace): Promise<void> {
    return apiCall(apiPaths.workspace(threadId), { method: 'PATCH', body: patch });
  },
  /** A document save on its base version: the answer holds the text as saved (merged) and its new version. */
  saveDocument(threadId: string, document: { content: string; base_version?: number | undefined }): Promise<LiveWorkspace> {
    return apiJson(LiveWorkspaceSchema, apiPaths.workspace(threadId), { method: 'PATCH', body: { document } });
  },
  addPreference(threadId: string, input: CreatePreference): Promise<void> {
    return apiCall(apiPaths.preferences(threadId), { method: 'POST', body: input });
  },
  updatePreference(threadId: string, id: string, input: UpdatePreference): Promise<void> {
    return apiCall(apiPaths.preference(threadId, id), { method: 'PATCH', body: input });
  },
  removePreference(threadId: string, id: string): Promise<void> {
    return apiCall(apiPaths.preference(threadId, id), { method: 'DELETE' });
  },
  reorderPreferences(threadId: string, ids: string[]): Promise<void> {
    return apiCall(`${apiPaths.preferences(threadId)}/reorder`, { method: 'POST', body: { ids } });
  },
  addTodo(threadId: string, input: CreateTodo): Promise<void> {
    return apiCall(apiPaths.todos(threadId), { method: 'POST', body: input });
  },
  updateTodo(threadId: string, id: string, input: UpdateTodo): Promise<void> {
    return apiCall(apiPaths.todo(threadId, id), { method: 'PATCH', body: input });
  },
  removeTodo(threadId: string, id: string): Promise<void> {
    return apiCall(apiPaths.todo(threadId, id), { method: 'DELETE' });
  },
  reorderTodos(threadId: string, ids: string[]): Promise<void> {
    return apiCall(`${apiPaths.todos(threadId)}/reorder`, { method: 'POST', body: { ids } });
  },
};
