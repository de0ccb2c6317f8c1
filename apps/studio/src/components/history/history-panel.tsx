'use client';
import type { Conversation } from '@trellis/domain';
import { MessageSquarePlus, RotateCcw } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SkeletonList } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/http';
import { ConversationItem } from './conversation-item';
import { nestConversations, splitArchived } from './nest-conversations';
import { useConversationList, useDeleteConversation, useUpdateConversation } from './use-conversations';

export interface HistoryPanelProps {
  selectedThreadId: string | null;
  isCreating: boolean;
  runningThreadIds: ReadonlySet<string>;
  onSelect: (threadId: string, options?: { exact?: boolean }) => void;
  onCreate: () => void;
  /** Called after the displayed conversation was deleted. */
  onDeletedSelected: () => void;
}

/** The history menu: the caller's conversations, newest first, each branch nested under its parent. */
export function HistoryPanel({
  selectedThreadId,
  isCreating,
  runningThreadIds,
  onSelect,
  onCreate,
  onDeletedSelected,
}: HistoryPanelProps) {
  const list = useConversationList();
  const { mutate: updateConversation } = useUpdateConversation();
  const { mutate: deleteConversation } = useDeleteConversation();
  const [pendingDelete, setPendingDelete] = useState<Conversation | null>(null);
  const groups = useMemo(() => {
    const { active, archived } = splitArchived(list.data ?? []);
    return { active: nestConversations(active), archived: nestConversations(archived) };
  }, [list.data]);

  const onRename = useCallback(
    (threadId: string, title: string) => updateConversation({ threadId, patch: { title } }),
    [updateConversation],
  );
  const onStar = useCallback(
    (threadId: string, starred: boolean) => updateConversation({ threadId, patch: { starred } }),
    [updateConversation],
  );
  const onArchive = useCallback(
    (threadId: string, archived: boolean) => updateConversation({ threadId, patch: { archived } }),
    [updateConversation],
  );
  const item = ({ conversation, depth }: { conversation: Conversation; depth: number }) => (
    <ConversationItem
      key={conversation.thread_id}
      conversation={conversation}
      depth={depth}
      isSelected={conversation.thread_id === selectedThreadId}
      isRunning={runningThreadIds.has(conversation.thread_id)}
      onSelect={onSelect}
      onRename={onRename}
      onDelete={onDelete}
      onStar={onStar}
      onArchive={onArchive}
    />
  );
  const onDelete = useCallback((conversation: Conversation) => setPendingDelete(conversation), []);

  const confirmDelete = () => {
    if (!pendingDelete) return;
    const threadId = pendingDelete.thread_id;
    setPendingDelete(null);
    if (threadId === selectedThreadId) onDeletedSelected();
    deleteConversation(threadId);
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
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {list.isPending ? (
          <SkeletonList rows={5} className="px-1 pt-1" testId="conversations-loading" />
        ) : list.isError ? (
          <div className="space-y-2 px-2 py-4 text-sm" role="alert">
            <p className="text-destructive">Could not load conversations: {errorMessage(list.error)}</p>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
              <RotateCcw /> Retry
            </Button>
          </div>
        ) : list.data.length === 0 ? (
          <div
            className="px-2 py-6 text-center text-sm text-muted-foreground"
            data-testid="conversations-empty"
          >
            <p>No conversations yet.</p>
            <p className="mt-1">Start one with “New”, or just type a message.</p>
          </div>
        ) : (
          <>
            <ul className="space-y-0.5" data-testid="conversation-list">
              {groups.active.map(item)}
            </ul>
            {groups.archived.length > 0 && (
              <details className="mt-3" data-testid="archived-group">
                <summary className="cursor-pointer rounded-md px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground hover:bg-muted">
                  Archived ({groups.archived.length})
                </summary>
                <ul className="mt-1 space-y-0.5" data-testid="archived-list">
                  {groups.archived.map(item)}
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
        description={<>“{pendingDelete?.title}” and its workspace will disappear from your list.</>}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </section>
  );
}
