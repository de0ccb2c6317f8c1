'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '@trellis/domain';
import { useMemo, useRef } from 'react';
import { usePendingSaves } from '@/components/workspace/pending-saves';
import { useToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api/http';
import { queryKeys } from '@/lib/api/query-keys';
import { workspaceApi } from '@/lib/api/workspace';
import { PENDING_ID_PREFIX, type WorkspaceActions, type WorkspaceSource } from './workspace-source';

interface Edit {
  run: (threadId: string) => Promise<void>;
  /** The cache as it should look right away. */
  optimistic: (workspace: Workspace) => Workspace;
  failure: string;
}

/**
 * The live workspace of a thread: read with TanStack Query, edited with
 * optimistic mutations. Each edit cancels in-flight reads (so an older response
 * cannot overwrite it), and the workspace is re-read once the last concurrent
 * edit settles. Every request is tracked so a send waits for it.
 */
/** Every workspace edit of this tab runs under this mutation key (the family events wait for them). */
export const WORKSPACE_EDIT_KEY = ['workspace-edit'];

export function useLiveWorkspace(threadId: string | null): WorkspaceSource {
  const queryClient = useQueryClient();
  const toast = useToast();
  const saves = usePendingSaves();
  const nextPendingId = useRef(1);
  const sentVersions = useRef(new Map<string, number>());

  const query = useQuery({
    queryKey: queryKeys.workspace(threadId ?? ''),
    queryFn: ({ signal }) => workspaceApi.get(threadId ?? '', signal),
    enabled: threadId !== null,
  });

  const { mutateAsync } = useMutation({
    mutationKey: WORKSPACE_EDIT_KEY,
    mutationFn: ({ threadId: id, edit }: { threadId: string; edit: Edit }) => edit.run(id),
    onMutate: async ({ threadId: id, edit }) => {
      const key = queryKeys.workspace(id);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Workspace>(key);
      if (previous) queryClient.setQueryData<Workspace>(key, edit.optimistic(previous));
      return { previous };
    },
    onError: (error, { threadId: id, edit }, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.workspace(id), context.previous);
      toast.error(`${edit.failure}: ${errorMessage(error)}`);
    },
    onSettled: (_data, _error, { threadId: id }) => {
      if (queryClient.isMutating({ mutationKey: WORKSPACE_EDIT_KEY }) <= 1) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.workspace(id) });
      }
    },
  });

  const actions = useMemo<WorkspaceActions>(() => {
    const edit = (e: Edit) => {
      // Tracked from the call, not from the request: onMutate is async, and a
      // send that starts meanwhile must still wait for this edit.
      if (threadId !== null) void saves.track(mutateAsync({ threadId, edit: e }).catch(() => undefined));
    };
    const pendingId = () => `${PENDING_ID_PREFIX}${nextPendingId.current++}`;
    // The version this tab's copy of the item is at: what it last read, or past its own edits still in
    // flight (two quick toggles must not refuse each other). A stale copy is merged by field or refused (409).
    const versionOf = (list: 'preferences' | 'todos', itemId: string) => {
      if (threadId === null) return undefined;
      const read = queryClient.getQueryData<Workspace>(queryKeys.workspace(threadId))?.[list].find((item) => item.id === itemId)?.version;
      const base = Math.max(read ?? 0, sentVersions.current.get(itemId) ?? 0);
      if (base === 0) return undefined;
      sentVersions.current.set(itemId, base + 1);
      return base;
    };
    return {
      setObjective: (text) =>
        edit({
          run: (id) => workspaceApi.patch(id, { objective: text }),
          optimistic: (w) => ({ ...w, objective: text }),
          failure: 'Could not save the objective',
        }),
      setDocumentTitle: (title) =>
        edit({
          run: (id) => workspaceApi.patch(id, { document: { title } }),
          optimistic: (w) => ({ ...w, document: { ...w.document, title } }),
          failure: 'Could not save the title',
        }),
      saveDocumentContent: async (content, baseVersion) => {
        if (threadId === null) return;
        const key = queryKeys.workspace(threadId);
        // A save on a stale base is merged by the server (or refused with a 409 the editor shows as a merge view).
        const saved = await saves.track(workspaceApi.saveDocument(threadId, { content, base_version: baseVersion }));
        // A read that started before this save would carry the old body: drop it.
        await queryClient.cancelQueries({ queryKey: key });
        queryClient.setQueryData<Workspace>(key, (w) => (w ? { ...w, document: saved.document } : w));
        return { content: saved.document.content, version: saved.document.version };
      },
      addPreference: (text) =>
        edit({
          run: (id) => workspaceApi.addPreference(id, { text }),
          optimistic: (w) => ({
            ...w,
            preferences: [
              ...w.preferences,
              { id: pendingId(), key: null, text, locked: false, position: w.preferences.length },
            ],
          }),
          failure: 'Could not add the preference',
        }),
      updatePreference: (prefId, patch) => {
        const baseOfPreference = versionOf('preferences', prefId);
        edit({
          run: (id) => workspaceApi.updatePreference(id, prefId, { ...patch, base_version: baseOfPreference }),
          optimistic: (w) => ({
            ...w,
            preferences: w.preferences.map((p) => (p.id === prefId ? { ...p, ...patch } : p)),
          }),
          failure: 'Could not update the preference',
        });
      },
      removePreference: (prefId) =>
        edit({
          run: (id) => workspaceApi.removePreference(id, prefId),
          optimistic: (w) => ({ ...w, preferences: w.preferences.filter((p) => p.id !== prefId) }),
          failure: 'Could not delete the preference',
        }),
      reorderPreferences: (ids) =>
        edit({
          run: (id) => workspaceApi.reorderPreferences(id, ids),
          optimistic: (w) => ({ ...w, preferences: reorder(w.preferences, ids) }),
          failure: 'Could not reorder the preferences',
        }),
      addTodo: (text, depth) =>
        edit({
          run: (id) => workspaceApi.addTodo(id, { text, depth }),
          optimistic: (w) => ({
            ...w,
            todos: [...w.todos, { id: pendingId(), key: null, text, depth, done: false, position: w.todos.length }],
          }),
          failure: 'Could not add the todo',
        }),
      updateTodo: (todoId, patch) => {
        const baseOfTodo = versionOf('todos', todoId);
        edit({
          run: (id) => workspaceApi.updateTodo(id, todoId, { ...patch, base_version: baseOfTodo }),
          optimistic: (w) => ({
            ...w,
            todos: w.todos.map((t) => (t.id === todoId ? { ...t, ...patch } : t)),
          }),
          failure: 'Could not update the todo',
        });
      },
      removeTodo: (todoId) =>
        edit({
          run: (id) => workspaceApi.removeTodo(id, todoId),
          optimistic: (w) => ({ ...w, todos: w.todos.filter((t) => t.id !== todoId) }),
          failure: 'Could not delete the todo',
        }),
      reorderTodos: (ids) =>
        edit({
          run: (id) => workspaceApi.reorderTodos(id, ids),
          optimistic: (w) => ({ ...w, todos: reorder(w.todos, ids) }),
          failure: 'Could not reorder the todos',
        }),
    };
  }, [threadId, mutateAsync, queryClient, saves]);

  return {
    key: threadId,
    status: threadId === null ? 'idle' : query.data ? 'ready' : query.isError ? 'error' : 'loading',
    workspace: query.data,
    error: query.error,
    retry: () => void query.refetch(),
    actions,
  };
}

function reorder<T extends { id: string; position: number }>(
  items: readonly T[],
  ids: readonly string[],
): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id, position) => {
    const item = byId.get(id);
    return item ? [{ ...item, position }] : [];
  });
}
