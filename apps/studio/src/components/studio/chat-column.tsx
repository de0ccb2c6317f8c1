'use client';
import type { ReactNode } from 'react';
import { TrajectoryLinksProvider, type TrajectoryLinks } from '@/components/chat/trajectory-links';
import { TrajectoryPanel, type TrajectoryPanelProps } from '@/components/trajectory';
import { PreviewBanner } from './preview-banner';

export interface ChatColumnProps {
  /** Null while no conversation is displayed. */
  panel: TrajectoryPanelProps | null;
  links: TrajectoryLinks;
  preview: { stepLabel: string; isEdited: boolean; onBackToLatest: () => void } | null;
  children: ReactNode;
}

/** The middle column: the trajectory panel on top, then (for a restored step) the banner, then the chat. */
export function ChatColumn({ panel, links, preview, children }: ChatColumnProps) {
  return (
    <div className="flex h-full min-h-0 flex-col">
      {panel !== null && <TrajectoryPanel {...panel} />}
      {preview !== null && <PreviewBanner {...preview} />}
      <div className="min-h-0 flex-1">
        <TrajectoryLinksProvider value={links}>{children}</TrajectoryLinksProvider>
      </div>
    </div>
  );
}
