'use client';
import { DocumentConflictDetailsSchema, mergeDocumentText, type DocumentChanger } from '@trellis/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { usePendingSaves, useRegisterFlush } from '@/components/workspace/pending-saves';
import { ApiError } from '@/lib/api/http';
import type { SavedDocument } from './workspace-source';

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'error' | 'conflict';

/** The current document the server answered with a 409: the draft's edits overlap edits made meanwhile. */
export interface SaveConflict {
  content: string;
  version: number;
  /** The text the refused draft was edited from: the merge view shows each side's changes of it. */
  base: string;
  /** Who made the changes the draft overlapped, when the server said. */
  changedBy: DocumentChanger[];
}

export interface Autosave {
  draft: string;
  state: SaveState;
  onChange: (value: string) => void;
  /** Saves now (and again while the draft keeps changing); resolves when the server has the draft. */
  flush: () => Promise<void>;
  /** Set while a save was refused as overlapping: the merge view shows it against the draft. */
  conflict: SaveConflict | null;
  /** Ends a conflict with the text the person settled on, saved on the conflict's version. */
  resolve: (text: string) => Promise<void>;
}

/**
 * A debounced, serialised autosave for one text, saved on the version it was edited from (never a
 * silent overwrite). The draft is the truth while it differs from what the server last
 * confirmed; when it does not, a newer server value (the agent appended) replaces it and becomes the
 * base. A save answers the text as the server stored it — merged with edits that landed meanwhile —
 * which the draft takes (rebased onto it when the person kept typing). A 409 stops saving and shows
 * the merge view; "Saved" is shown only when the server holds the draft.
 */
export function useAutosave(
  serverValue: string,
  save: (value: string, baseVersion: number | undefined) => Promise<SavedDocument | void>,
  delayMs = 700,
  serverVersion?: number,
): Autosave {
  const saves = usePendingSaves();
  const [dirtyKey] = useState(() => Symbol('autosave'));
  const [draft, setDraft] = useState(serverValue);
  const [state, setState] = useState<SaveState>('saved');
  const [conflict, setConflict] = useState<SaveConflict | null>(null);
  const draftRef = useRef(serverValue);
  const confirmedRef = useRef(serverValue);
  const baseVersionRef = useRef(serverVersion);
  const conflictRef = useRef<SaveConflict | null>(null);
  const inFlight = useRef<Promise<SavedDocument | void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(() => {
    if (draftRef.current === confirmedRef.current) {
      confirmedRef.current = serverValue;
      draftRef.current = serverValue;
      baseVersionRef.current = serverVersion;
      setDraft(serverValue);
    } else if (draftRef.current === serverValue) {
      confirmedRef.current = serverValue;
      baseVersionRef.current = serverVersion;
      saves.setDirty(dirtyKey, false);
      setState('saved');
    }
  }, [serverValue, serverVersion, saves, dirtyKey]);

  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    for (;;) {
      if (inFlight.current) {
        await inFlight.current.catch(() => undefined);
        continue;
      }
      if (conflictRef.current) return;
      const value = draftRef.current;
      if (value === confirmedRef.current) {
        saves.setDirty(dirtyKey, false);
        setState('saved');
        return;
      }
      setState('saving');
      const request = saveRef.current(value, baseVersionRef.current);
      inFlight.current = request;
      try {
        const saved = await request;
        if (saved) {
          confirmedRef.current = saved.content;
          baseVersionRef.current = saved.version;
          if (saved.content !== value) takeMerged(value, saved.content);
        } else {
          confirmedRef.current = value;
        }
      } catch (error) {
        const current = conflictOf(error, confirmedRef.current);
        if (current) {
          conflictRef.current = current;
          setConflict(current);
          saves.setConflict(dirtyKey, true);
          setState('conflict');
        } else {
          setState('error');
        }
        return;
      } finally {
        inFlight.current = null;
      }
    }

    /** The server merged others' edits into the saved text: the draft takes them, keeping what was typed since. */
    function takeMerged(sent: string, merged: string) {
      const typed = draftRef.current;
      const next = typed === sent ? { isClean: true as const, text: merged } : mergeDocumentText(sent, typed, merged);
      if (next.isClean) {
        draftRef.current = next.text;
        setDraft(next.text);
      } else {
        conflictRef.current = { content: merged, version: baseVersionRef.current ?? 0, base: sent, changedBy: [] };
        setConflict(conflictRef.current);
        saves.setConflict(dirtyKey, true);
        setState('conflict');
      }
    }
  }, [saves, dirtyKey]);

  useRegisterFlush(flush);

  const onChange = useCallback(
    (value: string) => {
      draftRef.current = value;
      setDraft(value);
      const isDirty = value !== confirmedRef.current;
      saves.setDirty(dirtyKey, isDirty);
      if (conflictRef.current) return;
      setState(isDirty ? 'unsaved' : 'saved');
      clearTimeout(timer.current);
      if (isDirty) timer.current = setTimeout(() => void flush(), delayMs);
    },
    [flush, delayMs, saves, dirtyKey],
  );

  const resolve = useCallback(
    async (text: string) => {
      const settled = conflictRef.current;
      if (!settled) return;
      conflictRef.current = null;
      setConflict(null);
      saves.setConflict(dirtyKey, false);
      confirmedRef.current = settled.content;
      baseVersionRef.current = settled.version;
      draftRef.current = text;
      setDraft(text);
      saves.setDirty(dirtyKey, text !== settled.content);
      await flush();
    },
    [flush, saves, dirtyKey],
  );

  // Leaving (another thread, unmount) saves what was typed.
  useEffect(
    () => () => {
      void flush().finally(() => {
        saves.setDirty(dirtyKey, false);
        saves.setConflict(dirtyKey, false);
      });
    },
    [flush, saves, dirtyKey],
  );

  return { draft, state, onChange, flush, conflict, resolve };
}

function conflictOf(error: unknown, base: string): SaveConflict | null {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return null;
  const details = DocumentConflictDetailsSchema.safeParse(error.details);
  if (!details.success) return null;
  const { document, changed_by } = details.data;
  return { content: document.content, version: document.version, base, changedBy: changed_by ?? [] };
}
