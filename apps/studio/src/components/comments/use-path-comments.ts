'use client';
import type { Extension } from '@codemirror/state';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { commentExtension, type PassageSelection } from './comment-extension';
import { COMMENTS_KEY, openPassages, useComments, type CommentsController } from './use-comments';

/**
 * What the workspace needs of a path's comments: the list and its mutations, the editor extension
 * that highlights open passages and opens the composer on Ctrl/Cmd+Alt+M, and the editor's selection.
 */
export function usePathComments(
  threadId: string | null,
  /** The live document's version: when it moves (the agent or another person wrote), passages are read again where they now are. */
  documentVersion: number | undefined,
): {
  controller: CommentsController;
  overlay: Extension | null;
  selection: PassageSelection | null;
  composing: PassageSelection | null;
  clearComposing: () => void;
} {
  const controller = useComments(threadId);
  const queryClient = useQueryClient();
  const [selection, setSelection] = useState<PassageSelection | null>(null);
  const [composing, setComposing] = useState<PassageSelection | null>(null);
  const passages = useMemo(() => openPassages(controller.list.data), [controller.list.data]);
  // Only passages move with the text: a path without open ones is not read again for a new version.
  const hasPassages = passages.length > 0;
  const seenVersion = useRef(documentVersion);
  useEffect(() => {
    if (seenVersion.current === documentVersion) return;
    const isFirst = seenVersion.current === undefined;
    seenVersion.current = documentVersion;
    if (!isFirst && hasPassages && threadId !== null) void queryClient.invalidateQueries({ queryKey: [COMMENTS_KEY, threadId] });
  }, [documentVersion, hasPassages, threadId, queryClient]);
  const key = passages.map((p) => `${p.id}:${p.start}:${p.end}`).join(',');
  // Rebuilt only when the highlighted passages change (a new extension reconfigures the editor).
  const overlay = useMemo(() => (threadId === null ? null : commentExtension(passages, { onCompose: setComposing, onSelect: setSelection })), [threadId, key]);
  const clearComposing = useCallback(() => setComposing(null), []);
  return { controller, overlay, selection, composing, clearComposing };
}
