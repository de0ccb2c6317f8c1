'use client';
import { plainTitle, type Conversation } from '@trellis/domain';
import { Loader2, MessageSquarePlus, RotateCcw } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SkeletonList } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/http';
import { ConversationItem } from './conversation-item';
import { historyRows } from './history-rows';
import { countDescendants, type NestedConversation } from './nest-conversations';
import { useConversationPages, useDeleteConversation, useUpdateConversation } from './use-conversations';
import { VirtualConversationList, type VirtualRowPlacement } from './virtual-conversation-list';

export interface HistoryPanelProps {
  selectedThreadId: string | null;
  isCreating: boolean;
  runningThreadIds: ReadonlySet<string>;
  onSelect: (threadId: string, options?: { exact?: boolean }) => void;
  onCreate: () => void;
  /** Called after the displayed conversation was deleted. */
  onDeletedSelected: () => void;
}

/** How far below the visible end of the list the next page starts loading. */
const LOAD_AHEAD = '400px';

/**
 * The history menu: the caller's conversations, newest family first, each branch nested under its
 * parent. The first page paints at once; the next loads as the list is scrolled near its end.
 */
export function HistoryPanel({
  selectedThreadId,
  isCreating,
  runningThreadIds,
  onSelect,
  onCreate,
  onDeletedSelected,
}: HistoryPanelProps) {
  const list = useConversationPages();
  const { mutate: updateConversation } = useUpdateConversation();
  const { mutate: deleteConversation } = useDeleteConversation();
  const [pendingDelete, setPendingDelete] = useState<Conversation | null>(null);
  const [pendingArchive, setPendingArchive] = useState<{ conversation: Conversation; count: number } | null>(null);
  const loaded = useMemo(() => (list.data?.pages ?? []).flatMap((page) => page.conversations), [list.data]);
  const groups = useMemo(() => historyRows(list.data?.pages ?? []), [list.data]);
  const isEmpty = groups.active.length === 0 && groups.shared.length === 0 && groups.archived.length === 0;

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const scroller = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const sentinel = end.current;
    if (!sentinel || !hasNextPage || isFetchingNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void fetchNextPage();
      },
      { root: scroller.current, rootMargin: `0px 0px ${LOAD_AHEAD} 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, groups]);

  const onRename = useCallback(
    (threadId: string, title: string) => updateConversation({ threadId, patch: { title } }),
    [updateConversation],
  );
  const onStar = useCallback(
    (threadId: string, starred: boolean) => updateConversation({ threadId, patch: { starred } }),
    [updateConversation],
  );
  const onArchive = useCallback(
    (threadId: string, archived: boolean) => {
      // Archiving a path puts away everything under it: say so before doing it.
      const count = archived ? countDescendants(loaded, threadId) : 0;
      const conversation = loaded.find((c) => c.thread_id === threadId);
      if (count > 0 && conversation !== undefined) setPendingArchive({ conversation, count });
      else updateConversation({ threadId, patch: { archived } });
    },
    [updateConversation, loaded],
  );
  const confirmArchive = () => {
    if (!pendingArchive) return;
    updateConversation({ threadId: pendingArchive.conversation.thread_id, patch: { archived: true } });
    setPendingArchive(null);
  };
  const item = ({ conversation, depth, alternatives }: NestedConversation, placement?: VirtualRowPlacement) => (
    <ConversationItem
      key={conversation.thread_id}
      conversation={conversation}
      depth={depth}
      alternatives={alternatives}
      selectedAlternativeId={
        alternatives.some((g) => g.threads.some((t) => t.thread_id === selectedThreadId)) ? selectedThreadId : null
      }
      isSelected={conversation.thread_id === selectedThreadId}
      isRunning={runningThreadIds.has(conversation.thread_id)}
      onSelect={onSelect}
      onRename={onRename}
      onDelete={onDelete}
      onStar={onStar}
      onArchive={onArchive}
      {...placement}
    />
  );
  const onDelete = useCallback((conversation: Conversation) => setPendingDelete(conversation), []);

  const confirmDelete = () => {
    if (!pendingDelete) return;
    const threadId = pendingDelete.thread_id;
    setPendingDelete(null);
    deleteConversation({ threadId, whenRemoved: threadId === selectedThreadId ? onDeletedSelected : undefined });
  };

  return (
    <section aria-label="Conversations" className="flex h-full min-h-0 flex-col" data-testid="history-panel">
      <div className="flex items-center justify-between gap-2 px-3 pb-2 pt-3">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Conversations</h2>
        <Button
          size="sm"
          variant="outline"
          data-testid="new-conversation"
          disabled={isCreating}
          onClick={onCreate}
        >
          <MessageSquarePlus /> New
        </Button>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-2 pb-3" data-testid="history-scroller">
        {list.isPending ? (
          <SkeletonList rows={5} className="px-1 pt-1" testId="conversations-loading" />
        ) : list.isError ? (
          <div className="space-y-2 px-2 py-4 text-sm" role="alert">
            <p className="text-destructive">Could not load conversations: {errorMessage(list.error)}</p>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
              <RotateCcw /> Retry
            </Button>
          </div>
        ) : isEmpty && !hasNextPage ? (
          <div
            className="px-2 py-6 text-center text-sm text-muted-foreground"
            data-testid="conversations-empty"
          >
            <p>No conversations yet.</p>
            <p className="mt-1">Start one with “New”, or just type a message.</p>
          </div>
        ) : (
          <>
            <VirtualConversationList
              rows={groups.active}
              scrollerRef={scroller}
              hasMore={hasNextPage}
              selectedThreadId={selectedThreadId}
              renderRow={item}
            />
            {hasNextPage && (
              <div
                ref={end}
                className="flex items-center gap-2 px-3 py-2 text-xs text-muted-foreground"
                data-testid="conversations-loading-more"
                aria-busy={isFetchingNextPage}
              >
                <Loader2 className="size-3.5 animate-spin" aria-hidden />
                Loading older conversations…
              </div>
            )}
            {list.isFetchNextPageError && (
              <div className="space-y-2 px-2 py-2 text-sm" role="alert">
                <p className="text-destructive">Could not load older conversations.</p>
                <Button size="sm" variant="outline" onClick={() => void fetchNextPage()}>
                  <RotateCcw /> Retry
                </Button>
              </div>
            )}
            {groups.shared.length > 0 && (
              <details className="mt-3" open data-testid="shared-group">
                <summary className="cursor-pointer rounded-md px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground hover:bg-muted">
                  Shared with me ({groups.shared.length})
                </summary>
                {/* Not virtualised: other people's families, usually a handful. */}
                <ul className="mt-1 space-y-0.5" data-testid="shared-list">
                  {groups.shared.map((row) => item(row))}
                </ul>
              </details>
            )}
            {groups.archived.length > 0 && (
              <details className="mt-3" data-testid="archived-group">
                <summary className="cursor-pointer rounded-md px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground hover:bg-muted">
                  Archived ({groups.archived.length})
                </summary>
                {/* Not virtualised: it holds only what the caller put away, and stays closed by default. */}
                <ul className="mt-1 space-y-0.5" data-testid="archived-list">
                  {groups.archived.map((row) => item(row))}
                </ul>
              </details>
            )}
          </>
        )}
      </div>
      <ConfirmDialog
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title="Delete this conversation?"
        description={<>“{pendingDelete && plainTitle(pendingDelete.title)}” and its workspace will disappear from your list.</>}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
      <ConfirmDialog
        open={pendingArchive !== null}
        onOpenChange={(open) => !open && setPendingArchive(null)}
        title="Archive this path?"
        description={
          pendingArchive && (
            <>
              “{plainTitle(pendingArchive.conversation.title)}” and the {pendingArchive.count}{' '}
              {pendingArchive.count === 1 ? 'path' : 'paths'} under it go to Archived. You can restore them from there.
            </>
          )
        }
        confirmLabel={pendingArchive ? `Archive ${pendingArchive.count + 1} paths` : 'Archive'}
        onConfirm={confirmArchive}
      />
    </section>
  );
}
