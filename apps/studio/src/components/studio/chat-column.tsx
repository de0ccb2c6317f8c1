'use client';
import { memo, useCallback, useRef, type ReactNode } from 'react';
import { TrajectoryLinksProvider, type TrajectoryLinks } from '@/components/chat/trajectory-links';
import { useUpdateConversation } from '@/components/history/use-conversations';
import { RenamePathProvider, TrajectoryPanel, type TrajectoryPanelProps } from '@/components/trajectory';
import { PreviewBanner } from './preview-banner';
import { useStepInView } from './use-step-in-view';

export interface ChatColumnProps {
  /** Null while no conversation is displayed. */
  panel: TrajectoryPanelProps | null;
  links: TrajectoryLinks;
  preview: { stepLabel: string; isEdited: boolean; onBackToLatest: () => void } | null;
  children: ReactNode;
}

// Re-rendered only when its props change: not on every streamed token of the chat below.
const Panel = memo(TrajectoryPanel);

/** The middle column: the trajectory panel on top, then (for a restored step) the banner, then the chat. */
export function ChatColumn({ panel, links, preview, children }: ChatColumnProps) {
  const { mutate: updateConversation } = useUpdateConversation();
  // Stable, so the memoised panel does not re-render when the chat does.
  const renamePath = useCallback(
    (threadId: string, title: string) => updateConversation({ threadId, patch: { title } }),
    [updateConversation],
  );
  // The map follows the chat: the step whose message is in view.
  const chatRef = useRef<HTMLDivElement>(null);
  const followTurn = useStepInView(chatRef);
  return (
    <div className="flex h-full min-h-0 flex-col">
      {panel !== null && (
        <RenamePathProvider value={renamePath}>
          <Panel {...panel} followTurn={followTurn} />
        </RenamePathProvider>
      )}
      {preview !== null && <PreviewBanner {...preview} />}
      <div ref={chatRef} className="min-h-0 flex-1">
        <TrajectoryLinksProvider value={links}>{children}</TrajectoryLinksProvider>
      </div>
    </div>
  );
}
