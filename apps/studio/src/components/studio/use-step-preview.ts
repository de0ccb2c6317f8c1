'use client';
import { useQuery } from '@tanstack/react-query';
import type { Message, Workspace } from '@trellis/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TranscriptSource } from '@/components/chat/transcript-source';
import {
  applyLocalEdit,
  LOCAL_ID_PREFIX,
  workspaceSignature,
  type LocalEdit,
} from '@/components/workspace/local-workspace';
import type { WorkspaceActions, WorkspaceSource } from '@/components/workspace/workspace-source';
import { branchesApi } from '@/lib/api/branches';
import { isApiError } from '@/lib/api/http';
import { queryKeys } from '@/lib/api/query-keys';
import type { DisplayedView } from '@/lib/view-url';

export interface StepPreview {
  threadId: string;
  step: number;
  /** The thread that owns step k (an ancestor for an inherited step): the branch forks from it. */
  ownerThreadId: string;
  transcript: TranscriptSource;
  workspace: WorkspaceSource;
  /** The workspace as displayed right now, edits included; undefined until the restore view arrives. */
  read: () => PreviewWorkspace | undefined;
  /** Differs from the state it was restored to (a baseline taken on entry). */
  isEdited: boolean;
}

export interface PreviewWorkspace {
  workspace: Workspace;
  isEdited: boolean;
}

interface LocalState {
  key: string;
  baseline: string;
  workspace: Workspace;
}

/**
 * A previewed past step (docs/branching.md, "The restore rule"): the restore view's transcript,
 * truncated to the step, and its workspace as LOCAL state that the same workspace panel edits. Looking
 * creates nothing on the server. Null when the view shows a live tip.
 */
export function useStepPreview(view: DisplayedView): StepPreview | null {
  const { threadId, step } = view;
  const key = threadId !== null && step !== null ? `${threadId}@${step}` : null;
  const query = useQuery({
    queryKey: [...queryKeys.thread(threadId ?? ''), 'restore', step ?? -1],
    queryFn: ({ signal }) => branchesApi.restoreView(threadId ?? '', step ?? 0, signal),
    enabled: key !== null,
    // A past step never changes; refetching could only clobber nothing but costs a request.
    staleTime: Infinity,
    retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 1,
  });

  // The local copy starts from the restore view once per entry: a refetch never overwrites edits,
  // and leaving the preview forgets them (coming back restores afresh).
  const [local, setLocal] = useState<LocalState | null>(null);
  const data = key !== null && query.data?.thread_id === threadId ? query.data : undefined;
  if (key === null ? local !== null : data !== undefined && local?.key !== key) {
    setLocal(
      key === null || data === undefined
        ? null
        : { key, baseline: workspaceSignature(data.workspace), workspace: data.workspace },
    );
  }
  const current = local !== null && local.key === key ? local : null;

  // Edits apply to a mirror first, so a send right after `flushAll()` reads the document text the
  // editor just handed over, before React has rendered it.
  const mirror = useRef<LocalState | null>(null);
  useEffect(() => {
    mirror.current = local;
  }, [local]);
  const nextLocalId = useRef(1);
  const edit = useCallback(
    (change: LocalEdit) => {
      const base = mirror.current;
      if (base === null || base.key !== key) return;
      const next = { ...base, workspace: applyLocalEdit(base.workspace, change) };
      mirror.current = next;
      setLocal(next);
    },
    [key],
  );
  const read = useCallback((): PreviewWorkspace | undefined => {
    const state = mirror.current;
    if (state === null || state.key !== key) return undefined;
    return { workspace: state.workspace, isEdited: workspaceSignature(state.workspace) !== state.baseline };
  }, [key]);
  const actions = useMemo<WorkspaceActions>(() => {
    const localId = () => `${LOCAL_ID_PREFIX}${nextLocalId.current++}`;
    return {
      setObjective: (text) => edit({ kind: 'objective', text }),
      setDocumentTitle: (title) => edit({ kind: 'document-title', title }),
      saveDocumentContent: (content) => {
        edit({ kind: 'document-content', content });
        return Promise.resolve();
      },
      addPreference: (text) => edit({ kind: 'add-preference', id: localId(), text }),
      updatePreference: (id, patch) => edit({ kind: 'update-preference', id, patch }),
      removePreference: (id) => edit({ kind: 'remove-preference', id }),
      reorderPreferences: (ids) => edit({ kind: 'reorder-preferences', ids }),
      addTodo: (text, depth) => edit({ kind: 'add-todo', id: localId(), text, depth }),
      updateTodo: (id, patch) => edit({ kind: 'update-todo', id, patch }),
      removeTodo: (id) => edit({ kind: 'remove-todo', id }),
      reorderTodos: (ids) => edit({ kind: 'reorder-todos', ids }),
    };
  }, [edit]);

  const { refetch } = query;
  const retry = useCallback(() => void refetch(), [refetch]);
  const messages = data?.messages ?? NO_MESSAGES;
  const status = data !== undefined ? 'ready' : query.isError ? 'error' : 'loading';
  const isEdited = current !== null && workspaceSignature(current.workspace) !== current.baseline;

  const transcript = useMemo<TranscriptSource>(
    () => ({
      messages,
      status,
      error: query.error,
      retry,
      hasEarlier: false,
      isLoadingEarlier: false,
      loadEarlier: noop,
      runningTurn: null,
    }),
    [messages, status, query.error, retry],
  );

  if (key === null || threadId === null || step === null) return null;
  return {
    threadId,
    step,
    ownerThreadId: ownerOf(messages, step) ?? threadId,
    transcript,
    workspace: {
      key,
      status: current !== null ? 'ready' : status,
      workspace: current?.workspace,
      error: query.error,
      retry,
      actions,
    },
    read,
    isEdited,
  };
}

const NO_MESSAGES: Message[] = [];
const noop = () => undefined;

/** Messages name the thread that owns their turn (an ancestor for inherited turns). */
function ownerOf(messages: readonly Message[], step: number): string | undefined {
  return messages.find((message) => message.turn_index === step)?.thread_id;
}
