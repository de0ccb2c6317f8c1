'use client';
import { plainTitle, roleAllows, toPathRefInput, type Conversation, type PathRefInput } from '@trellis/domain';
import { ROLE_LABELS } from '@/components/members/role-labels';
import { RotateCcw } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/http';
import { isRunActive, type TurnRun } from '@/lib/turns/turn-store';
import { isRefusedSend } from '@/lib/turns/pending-turn';
import { ChatEmpty } from './chat-empty';
import { useUnsentText } from '@/components/studio/use-unsent-text';
import { COMPOSER_ID, Composer } from './composer';
import { RegenerateLastButton } from './message-actions';
import { MessageList } from './message-list';
import { TurnNotice } from './turn-notice';
import { useComposerDrafts } from './use-composer-drafts';
import type { TranscriptSource } from './transcript-source';
import type { PickedRef } from './path-picker';

export interface ChatPanelProps {
  threadId: string | null;
  /** The restored step shown, if any: its draft is kept apart from the live thread's, and leaving it asks first. */
  restoredStep?: number | null;
  transcript: TranscriptSource;
  conversation: Conversation | undefined;
  isMissing: boolean;
  /** The thread answered 403: the person's access was taken away (or never was theirs). */
  isForbidden?: boolean;
  modelLabel: string;
  run: TurnRun | undefined;
  /** Resolves true once the message was handed to a turn (the composer then clears). */
  onSend: (content: string, refs?: readonly PathRefInput[]) => Promise<boolean>;
  onStop: () => void;
  onDismiss: () => void;
  onLeave: () => void;
  /** Set: no message box, whatever the role (a narrowed studio that only reads); the note says why. */
  readOnlyNote?: string | undefined;
}

/** The middle column: the transcript of the displayed thread and the composer. */
export function ChatPanel({
  threadId,
  restoredStep = null,
  transcript,
  conversation,
  isMissing,
  isForbidden = false,
  modelLabel,
  run,
  onSend,
  onStop,
  onDismiss,
  onLeave,
  readOnlyNote,
}: ChatPanelProps) {
  // Drafts are kept per path, so switching conversations or reloading never loses one. A restored
  // view's draft is its own: it would branch from the step, and leaving the view discards it, after asking.
  const { key: draftKey, draft, setDraft, restore: restoreDraft } = useComposerDrafts(threadId, restoredStep);
  // The steps of other paths the draft brings in, kept with it while the page is open.
  const [refDrafts, setRefDrafts] = useState<Record<string, PickedRef[]>>({});
  const refs = refDrafts[draftKey] ?? [];
  const setRefs = (value: PickedRef[]) => setRefDrafts((all) => ({ ...all, [draftKey]: value }));
  useUnsentText({
    what: 'your message to the restored step',
    hasUnsent: () => restoredStep !== null && draft.trim() !== '',
    discard: () => setDraft(''),
    focus: () => document.getElementById(COMPOSER_ID)?.focus(),
  });
  const isRunning = isRunActive(run);
  // A viewer or a commenter reads: no message box, no Send.
  const canWrite = readOnlyNote === undefined && (conversation === undefined || roleAllows(conversation.role, 'edit'));

  const send = async (content: string): Promise<boolean> => {
    const key = draftKey;
    const picked = refs;
    setDraft('');
    setRefs([]);
    const accepted = await onSend(content.trimEnd(), picked.map(toPathRefInput));
    if (!accepted) {
      restoreDraft(key, content);
      setRefDrafts((all) => ({ ...all, [key]: picked }));
    }
    return accepted;
  };

  // A send the server refused before recording it (a 4xx, or 503 while the studio restarts) gives
  // the message back to the composer; the notice above it says why.
  const refusedRunId = isRefusedSend(run) ? run.runId : null;
  const onRefused = useEffectEvent(() => {
    if (run) restoreDraft(run.threadId, run.content);
  });
  useEffect(() => {
    if (refusedRunId !== null) onRefused();
  }, [refusedRunId]);

  const title = threadId === null ? 'New conversation' : plainTitle(conversation?.title ?? '');

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col" data-testid="chat-panel">
      <header className="flex h-11 shrink-0 items-center gap-2 border-b px-4">
        <h2 className="truncate text-sm font-semibold" data-testid="chat-title">
          {title || <Skeleton className="h-4 w-40" />}
        </h2>
        {conversation?.archived && !isMissing && (
          <span
            className="shrink-0 rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground"
            data-testid="chat-archived"
            title="Archived: hidden from the list and the trajectory until restored"
          >
            Archived
          </span>
        )}
      </header>
      {isMissing ? (
        <div
          className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center"
          data-testid="chat-missing"
        >
          <p className="text-sm text-muted-foreground">
            {isForbidden
              ? 'You do not have access to this conversation (any more). Ask its owner to invite you.'
              : 'This conversation does not exist, or it was deleted.'}
          </p>
          <Button variant="outline" size="sm" onClick={onLeave}>
            Start a new conversation
          </Button>
        </div>
      ) : transcript.status === 'loading' ? (
        <div
          className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-4 px-4 py-4"
          data-testid="messages-loading"
          aria-busy="true"
        >
          <Skeleton className="ml-auto h-10 w-2/3 rounded-2xl" />
          <Skeleton className="h-20 w-5/6" />
          <Skeleton className="ml-auto h-10 w-1/2 rounded-2xl" />
        </div>
      ) : transcript.status === 'error' ? (
        <div
          className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center"
          role="alert"
          data-testid="messages-error"
        >
          <p className="text-sm text-destructive">
            Could not load the messages: {errorMessage(transcript.error)}
          </p>
          <Button variant="outline" size="sm" onClick={transcript.retry}>
            <RotateCcw /> Retry
          </Button>
        </div>
      ) : (
        <MessageList
          threadId={threadId}
          messages={transcript.messages}
          run={run}
          hasEarlier={transcript.hasEarlier}
          isLoadingEarlier={transcript.isLoadingEarlier}
          onLoadEarlier={transcript.loadEarlier}
          empty={
            <ChatEmpty
              isNew={threadId === null}
              modelLabel={modelLabel}
              onExample={(text) => setDraft(draft ? `${draft}\n${text}` : text)}
            />
          }
        />
      )}
      <div className="mx-auto w-full max-w-3xl shrink-0 space-y-2 px-4 pb-4 pt-2">
        {run && (
          <TurnNotice
            run={run}
            onRetry={() => {
              // The refused message was given back to the composer: a retry takes it out again.
              if (draft === run.content) setDraft('');
              void onSend(run.content);
            }}
            onDismiss={onDismiss}
          />
        )}
        {canWrite ? (
          <>
            {!isMissing && transcript.status === 'ready' && <RegenerateLastButton />}
            <Composer
              draft={draft}
              onDraftChange={setDraft}
              onSend={send}
              onStop={onStop}
              isRunning={isRunning}
              isDisabled={isMissing}
              threadId={threadId}
              refs={refs}
              onRefsChange={setRefs}
            />
          </>
        ) : (
          !isMissing &&
          conversation &&
          (readOnlyNote === undefined ? (
            <ReadOnlyNote conversation={conversation} />
          ) : (
            <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground" data-testid="read-only-note">
              {readOnlyNote}
            </p>
          ))
        )}
      </div>
    </section>
  );
}

function ReadOnlyNote({ conversation }: { conversation: Conversation }) {
  return (
    <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground" data-testid="read-only-note">
      {conversation.owner ? `${conversation.owner.name} shared this conversation with you: ` : ''}
      you {ROLE_LABELS[conversation.role].toLowerCase()}. Only its editors and its owner send messages and change the
      workspace.
    </p>
  );
}
