import { History, MessageSquare, PanelRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export type StudioTab = 'chat' | 'workspace' | 'history';

const TABS: { id: StudioTab; label: string; icon: typeof History }[] = [
  { id: 'chat', label: 'Chat', icon: MessageSquare },
  { id: 'workspace', label: 'Workspace', icon: PanelRight },
  { id: 'history', label: 'History', icon: History },
];

export interface StudioLayoutProps {
  history: ReactNode;
  chat: ReactNode;
  workspace: ReactNode;
  tab: StudioTab;
  onTabChange: (tab: StudioTab) => void;
  /** Marks the workspace tab while the agent is changing it. */
  isWorkspaceBusy: boolean;
  /** What the first column holds when it is not the history (a participant's instructions). */
  historyLabel?: string | undefined;
}

/**
 * Three columns from 768 px up; below, one column at a time behind tabs. All
 * three stay mounted (CSS hides the others), so a hidden editor keeps its
 * state and a streaming turn keeps updating the workspace tab.
 */
export function StudioLayout({
  history,
  chat,
  workspace,
  tab,
  onTabChange,
  isWorkspaceBusy,
  historyLabel,
}: StudioLayoutProps) {
  const column = (id: StudioTab) => cn('min-h-0 min-w-0 flex-col md:flex', tab === id ? 'flex' : 'hidden');
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <nav
        role="tablist"
        aria-label="Studio sections"
        className="flex shrink-0 border-b md:hidden"
        data-testid="phone-tabs"
      >
        {TABS.map(({ id, label, icon: Icon }) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            data-testid={`tab-${id}`}
            onClick={() => onTabChange(id)}
            className={cn(
              'relative flex h-11 flex-1 items-center justify-center gap-1.5 text-sm',
              tab === id
                ? 'font-medium text-foreground after:absolute after:inset-x-4 after:bottom-0 after:h-0.5 after:rounded-full after:bg-brand'
                : 'text-muted-foreground',
            )}
          >
            <Icon aria-hidden className="size-4" />
            {id === 'history' && historyLabel !== undefined ? historyLabel : label}
            {id === 'workspace' && isWorkspaceBusy && (
              <span aria-label="updating" className="size-1.5 animate-pulse rounded-full bg-brand" />
            )}
          </button>
        ))}
      </nav>
      <div className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[220px_minmax(0,1fr)_minmax(300px,380px)] lg:grid-cols-[260px_minmax(0,1fr)_minmax(360px,460px)]">
        <aside className={cn(column('history'), 'bg-muted/30 md:border-r')} data-testid="column-history">
          {history}
        </aside>
        <main className={column('chat')} data-testid="column-chat">
          {chat}
        </main>
        <aside className={cn(column('workspace'), 'md:border-l')} data-testid="column-workspace">
          {workspace}
        </aside>
      </div>
    </div>
  );
}
