'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { usePendingSaves, useRegisterFlush } from '@/components/workspace/pending-saves';

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'error';

export interface Autosave {
  draft: string;
  state: SaveState;
  onChange: (value: string) => void;
  /** Saves now (and again while the draft keeps changing); resolves when the server has the draft. */
  flush: () => Promise<void>;
}

/**
 * A debounced, serialised autosave for one text. The draft is the truth while
 * it differs from what the server last confirmed; when it does not, a newer
 * server value (the agent rewrote the text) replaces it. Saves never overlap,
 * so an older save cannot land after a newer one.
 */
export function useAutosave(
  serverValue: string,
  save: (value: string) => Promise<void>,
  delayMs = 700,
): Autosave {
  const saves = usePendingSaves();
  const [dirtyKey] = useState(() => Symbol('autosave'));
  const [draft, setDraft] = useState(serverValue);
  const [state, setState] = useState<SaveState>('saved');
  const draftRef = useRef(serverValue);
  const confirmedRef = useRef(serverValue);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(() => {
    if (draftRef.current === confirmedRef.current) {
      confirmedRef.current = serverValue;
      draftRef.current = serverValue;
      setDraft(serverValue);
    } else if (draftRef.current === serverValue) {
      confirmedRef.current = serverValue;
      saves.setDirty(dirtyKey, false);
      setState('saved');
    }
  }, [serverValue, saves, dirtyKey]);

  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    for (;;) {
      if (inFlight.current) {
        await inFlight.current.catch(() => undefined);
        continue;
      }
      const value = draftRef.current;
      if (value === confirmedRef.current) {
        saves.setDirty(dirtyKey, false);
        setState('saved');
        return;
      }
      setState('saving');
      const request = saveRef.current(value);
      inFlight.current = request;
      try {
        await request;
        confirmedRef.current = value;
      } catch {
        setState('error');
        return;
      } finally {
        inFlight.current = null;
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
      setState(isDirty ? 'unsaved' : 'saved');
      clearTimeout(timer.current);
      if (isDirty) timer.current = setTimeout(() => void flush(), delayMs);
    },
    [flush, delayMs, saves, dirtyKey],
  );

  // Leaving (another thread, unmount) saves what was typed.
  useEffect(
    () => () => {
      void flush().finally(() => saves.setDirty(dirtyKey, false));
    },
    [flush, saves, dirtyKey],
  );

  return { draft, state, onChange, flush };
}
