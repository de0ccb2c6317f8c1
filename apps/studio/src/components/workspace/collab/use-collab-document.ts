'use client';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePresenceContext } from '@/components/presence/presence-context';
import { usePendingSaves, useRegisterFlush } from '@/components/workspace/pending-saves';
import { collabApi } from '@/lib/api/collab';
import { familySignals, newClientId } from '@/lib/live/family-signals';
import { CollabSession, type CollabStatus } from './collab-session';

export interface CollabDocument {
  /** The editor's text as it is now (for the preview and the authorship overlay). */
  text: string;
  status: CollabStatus;
  /** The text the editor starts from; it never changes after mount (the session moves the editor). */
  initialText: string;
  extension: Extension;
  onCreateEditor: (view: EditorView) => void;
  flush: () => Promise<void>;
}

/**
 * The live document of `threadId` in a CodeMirror editor that two people and the agent write at
 * once: a `CollabSession` fed by the family stream's `document_updates` and its own pushes' answers.
 * Mounted with the workspace's document and version; whatever came after, it reads on attach.
 */
export function useCollabDocument(
  threadId: string,
  document: { content: string; version: number },
): CollabDocument {
  const saves = usePendingSaves();
  const [dirtyKey] = useState(() => Symbol('collab-document'));
  const [initial] = useState(document);
  const [text, setText] = useState(document.content);
  const [status, setStatus] = useState<CollabStatus>('saved');
  const presence = usePresenceContext();
  const reportTyping = useRef(presence?.reportTyping);
  useEffect(() => {
    reportTyping.current = presence?.reportTyping;
  });

  const session = useMemo(
    () =>
      new CollabSession(
        newClientId('editor'),
        { push: (push) => collabApi.push(threadId, push), pull: (since) => collabApi.pull(threadId, since) },
        {
          onStatus: (next) => {
            setStatus(next);
            saves.setDirty(dirtyKey, next !== 'saved');
          },
          onLocalEdit: () => reportTyping.current?.(),
        },
      ),
    [threadId, saves, dirtyKey],
  );
  const extension = useMemo(
    () => [
      session.extension(initial.version),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) setText(update.state.doc.toString());
      }),
    ],
    [session, initial.version],
  );

  useEffect(
    () =>
      familySignals.listen((signal) => {
        if ('reconnected' in signal) void session.pull();
        else if (signal.thread_id === threadId) {
          if (signal.updates) session.receive(signal.updates);
          else session.announce(signal.version);
        }
      }),
    [session, threadId],
  );

  const flush = useCallback(() => session.flush(), [session]);
  useRegisterFlush(flush);
  // Leaving (another thread, unmount) sends what was typed, then stops.
  useEffect(
    () => () => {
      void session.flush().finally(() => {
        session.destroy();
        saves.setDirty(dirtyKey, false);
      });
    },
    [session, saves, dirtyKey],
  );

  const onCreateEditor = useCallback((view: EditorView) => session.attach(view), [session]);
  return { text, status, initialText: initial.content, extension, onCreateEditor, flush };
}
