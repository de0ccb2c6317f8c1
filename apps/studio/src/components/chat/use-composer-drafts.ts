'use client';
import { useCallback, useEffect, useState } from 'react';

/** Where a path's unsent message waits in this browser's storage. */
export function draftStorageKey(threadId: string | null): string {
  return `trellis:draft:${threadId ?? 'new'}`;
}

/**
 * The composer's unsent drafts, one per path (and one for a conversation not created yet). A live
 * path's draft is also kept in this browser's localStorage, so a reload or a closed tab finds it again
 * (the way Claude.ai and ChatGPT keep one); sending clears it. A restored step's draft lives in memory
 * only: leaving that view discards it, after asking.
 */
export function useComposerDrafts(threadId: string | null, restoredStep: number | null) {
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const key = threadId === null ? '' : restoredStep === null ? threadId : `${threadId}@${restoredStep}`;
  const isStored = restoredStep === null;

  // The stored draft is read after mount (the server render has no storage), once per path.
  useEffect(() => {
    if (!isStored) return;
    const stored = readStored(draftStorageKey(threadId));
    if (stored !== '') setDrafts((all) => (key in all ? all : { ...all, [key]: stored }));
  }, [key, isStored, threadId]);

  const write = useCallback((target: string, value: string) => {
    setDrafts((all) => ({ ...all, [target]: value }));
    if (!target.includes('@')) writeStored(draftStorageKey(target === '' ? null : target), value);
  }, []);

  return {
    key,
    draft: drafts[key] ?? '',
    setDraft: (value: string) => write(key, value),
    /** Gives a refused message back to its path's composer, unless something was typed there since. */
    restore: (target: string, content: string) => {
      if (!drafts[target]) write(target, content);
    },
  };
}

function readStored(name: string): string {
  try {
    return window.localStorage.getItem(name) ?? '';
  } catch {
    return ''; // storage refused (private mode, a full quota): the draft lives in memory only
  }
}

function writeStored(name: string, value: string): void {
  try {
    if (value.trim() === '') window.localStorage.removeItem(name);
    else window.localStorage.setItem(name, value);
  } catch {
    // As above: without storage the draft still lives for this page.
  }
}
