'use client';
import { ChatPanel } from '@/components/chat/chat-panel';
import { MessageActionsProvider } from '@/components/chat/message-actions';
import { HistoryPanel } from '@/components/history/history-panel';
import { SearchDialog } from '@/components/search/search-dialog';
import { ToastProvider } from '@/components/ui/toast';
import { WorkspacePanel } from '@/components/workspace/workspace-panel';
import { ReplayButton } from '@/components/replay/replay-button';
import { ReplayPanel } from '@/components/replay/replay-panel';
import { isRunActive } from '@/lib/turns/turn-store';
import { roleAllows } from '@trellis/domain';
import type { ReactNode } from 'react';
import { CurrentUserProvider } from '@/components/members/current-user';
import { MembersDialog } from '@/components/members/members-dialog';
import { PendingSavesProvider } from '@/components/workspace/pending-saves';
import { PresenceAvatars } from '@/components/presence/presence-avatars';
import { PresenceProvider } from '@/components/presence/presence-context';
import { usePresence } from '@/components/presence/use-presence';
import { ChatColumn } from './chat-column';
import { ExportMenu } from './export-menu';
import { StudioHeader } from './studio-header';
import { ShareDialog } from '@/components/share/share-dialog';
import { StudioLayout } from './studio-layout';
import { UnsentTextDialog } from './unsent-text-dialog';
import { useStudioController } from './use-studio-controller';
import type { PathAtOpen } from '@/lib/turns/path-at-open';
import { useIsHydrated } from '@/lib/use-is-hydrated';

export interface StudioProps {
  user: { id: string; name: string; email: string };
  modelLabel: string;
  initialThreadId: string | null;
  initialStep: number | null;
  /** `?replay=n`: the replayed change of the path. */
  initialReplay?: number | null;
  /** The path as the page was rendered: its transcript shown at once, its running turn followed as the page hydrates. */
  pathAtOpen?: PathAtOpen | null;
  /** A studio narrowed to one family: a study participant's own, or a researcher reading one. */
  narrowed?: NarrowedStudio;
}

export interface NarrowedStudio {
  /** Where its thread URLs live (`{root}/c/{thread_id}`). */
  root: string;
  /** Replaces the studio's header (no conversation list, tokens, studies, share or people). */
  header: ReactNode;
  /** Replaces the history column; `sideLabel` names its phone tab. */
  side: ReactNode;
  sideLabel: string;
  /** A linear study condition: no map to continue from, no replay, no edit or regenerate. */
  isLinear: boolean;
  /** Set: nothing is written here; the note says why. */
  readOnlyNote?: string | undefined;
}

export function Studio(props: StudioProps) {
  return (
    <CurrentUserProvider user={props.user}>
      <ToastProvider>
        <PendingSavesProvider>
          <StudioShell {...props} />
        </PendingSavesProvider>
      </ToastProvider>
    </CurrentUserProvider>
  );
}

function StudioShell({ user, modelLabel, initialThreadId, initialStep, initialReplay, pathAtOpen, narrowed }: StudioProps) {
  const studio = useStudioController(
    {
      threadId: initialThreadId,
      step: initialStep,
      replay: initialReplay ?? null,
    },
    {
      root: narrowed?.root ?? '',
      atOpen: pathAtOpen?.threadId === initialThreadId ? pathAtOpen : null,
    },
  );
  const { replay, conversation } = studio;
  // The page's HTML shows the transcript before its scripts run; what a click does starts here.
  const isHydrated = useIsHydrated();
  const presence = usePresence(studio.isMissing ? null : studio.view.threadId, studio.view.step);
  // A viewer or a commenter of a shared family reads: no message box, no editable field, no edit or regenerate.
  const canWrite = narrowed?.readOnlyNote === undefined && (conversation === undefined || roleAllows(conversation.role, 'edit'));
  // A linear condition branches nowhere (the server refuses it too): no edit, no regenerate; a
  // failed reply is still answered again in place.
  const messageActions = studio.messageActions && {
    ...studio.messageActions,
    canChange: studio.messageActions.canChange && canWrite,
    canBranch: narrowed?.isLinear !== true,
  };
  return (
    <PresenceProvider state={presence} meUserId={user.id}>
      <div className="relative flex h-dvh flex-col" data-testid="studio" data-hydrated={isHydrated}>
        {/* The page's first tab stop (before the header, the history and the map): straight to writing. */}
        <a
          href="#composer"
          data-testid="skip-to-composer"
          className="sr-only z-50 rounded-md bg-background text-sm font-medium focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:px-2 focus:py-1 focus:ring-2 focus:ring-ring"
        >
          Skip to the message box
        </a>
        {narrowed ? (
          narrowed.header
        ) : (
          <StudioHeader
          email={user.email}
          modelLabel={modelLabel}
          search={<SearchDialog onOpenStep={studio.openStep} />}
          exportMenu={<ExportMenu threadId={studio.isMissing ? null : studio.view.threadId} />}
          presence={<PresenceAvatars />}
          people={
            conversation && !studio.isMissing && <MembersDialog conversation={conversation} currentUserId={user.id} onLeft={studio.leave} />
          }
          share={
            conversation?.role === 'owner' && !studio.isMissing && <ShareDialog threadId={studio.view.threadId} step={studio.view.step} />
          }
          />
        )}
        <StudioLayout
          tab={studio.tab}
          onTabChange={studio.setTab}
          isWorkspaceBusy={isRunActive(studio.run)}
          historyLabel={narrowed?.sideLabel}
          history={
            narrowed ? (
              narrowed.side
            ) : (
            <HistoryPanel
              selectedThreadId={studio.view.threadId}
              isCreating={studio.isCreating}
              runningThreadIds={studio.runningThreadIds}
              onSelect={studio.guardedOpenConversation}
              onCreate={studio.guardedCreateConversation}
              onDeletedSelected={studio.leave}
            />
            )
          }
          chat={
            <ChatColumn
              panel={studio.isMissing || narrowed?.isLinear === true ? null : studio.trajectory.panel}
              links={studio.trajectory.links}
              preview={studio.trajectory.banner}
            >
              <MessageActionsProvider value={messageActions}>
                <ChatPanel
                  threadId={studio.view.threadId}
                  restoredStep={studio.view.step}
                  transcript={studio.transcript}
                  conversation={studio.conversation}
                  isMissing={studio.isMissing}
                  isForbidden={studio.isForbidden}
                  modelLabel={modelLabel}
                  run={studio.run}
                  onSend={studio.send}
                  onStop={studio.stop}
                  onDismiss={studio.dismissRun}
                  onLeave={studio.leave}
                  readOnlyNote={narrowed?.readOnlyNote}
                />
              </MessageActionsProvider>
            </ChatColumn>
          }
          workspace={
            replay.seq !== null ? (
              <ReplayPanel replay={{ ...replay, seq: replay.seq }} />
            ) : (
              <WorkspacePanel
                source={studio.workspace}
                isReadOnly={!canWrite}
                preview={studio.trajectory.banner}
                userId={user.id}
                headerAction={
                  studio.view.threadId !== null && !studio.isMissing && narrowed?.isLinear !== true && <ReplayButton onOpen={replay.open} />
                }
              />
            )
          }
        />
        <UnsentTextDialog />
      </div>
    </PresenceProvider>
  );
}
