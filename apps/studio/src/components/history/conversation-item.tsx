'use client';
import { plainTitle, roleAllows, type Conversation } from '@trellis/domain';
import { ROLE_LABELS } from '@/components/members/role-labels';
import { Archive, ArchiveRestore, GitBranch, Pencil, RefreshCw, Star, Trash2 } from 'lucide-react';
import { memo, useState, type MouseEvent, type Ref } from 'react';
import { EditableText } from '@/components/ui/editable-text';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format-time';
import { viewPath } from '@/lib/view-url';
import type { ReplyAlternativeGroup } from './reply-alternatives';

export interface ConversationItemProps {
  conversation: Conversation;
  /** Nesting level in the menu: a branch sits one level under its parent. */
  depth: number;
  isSelected: boolean;
  isRunning: boolean;
  /** `exact`: open this very thread (a branch row); otherwise the family opens at its cursor. */
  onSelect: (threadId: string, options?: { exact?: boolean }) => void;
  onRename: (threadId: string, title: string) => void;
  onDelete: (conversation: Conversation) => void;
  onStar: (threadId: string, starred: boolean) => void;
  onArchive: (threadId: string, archived: boolean) => void;
  /** The step's regenerated replies folded into this row (a count per step). */
  alternatives?: ReplyAlternativeGroup[];
  /** The folded alternative being viewed, if one of this row's is. */
  selectedAlternativeId?: string | null;
  /**
   * In a virtualised list: the row's index among the loaded rows, how many rows are loaded (-1 while
   * more may come), its offset from the list's top in px, and the ref that measures its height.
   * Primitives, so a row that neither moved nor changed skips rendering while the list scrolls.
   */
  index?: number;
  setSize?: number;
  top?: number;
  measureRef?: Ref<HTMLLIElement>;
}

/** Indentation per nesting level, in px; deep chains stop indenting so titles stay readable. */
const INDENT_PX = 14;
const MAX_INDENT_LEVELS = 4;

/**
 * One row of the history menu: a link to the thread, inline rename, star, archive, delete. The title
 * takes the row's whole width (up to two lines, the full title in a tooltip); the actions lie over
 * the row's lower right corner and show on hover or when focus is inside the row (always on a
 * phone), so hidden actions cost the title nothing and stay in the tab order.
 */
export const ConversationItem = memo(function ConversationItem({
  conversation,
  depth,
  isSelected,
  isRunning,
  onSelect,
  onRename,
  onDelete,
  onStar,
  onArchive,
  alternatives = [],
  selectedAlternativeId = null,
  index,
  setSize,
  top,
  measureRef,
}: ConversationItemProps) {
  const [isRenaming, setIsRenaming] = useState(false);
  const { thread_id: threadId, title: storedTitle } = conversation;
  // Titles stored before default titles were plain text read well too.
  const title = plainTitle(storedTitle);
  // Curating a path (rename, star, archive) is an editor's; deleting one, the owner's.
  const canEdit = roleAllows(conversation.role, 'edit');

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onSelect(threadId, { exact: conversation.parent_thread_id !== null });
  };

  return (
    <li
      ref={measureRef}
      data-index={index}
      aria-posinset={index === undefined ? undefined : index + 1}
      aria-setsize={setSize}
      data-testid="conversation-item"
      data-thread-id={threadId}
      data-parent-thread-id={conversation.parent_thread_id ?? undefined}
      data-depth={depth}
      data-selected={isSelected}
      data-starred={conversation.starred}
      data-archived={conversation.archived}
      style={{
        ...(top !== undefined && { position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${top}px)` }),
        ...(depth > 0 && { marginLeft: Math.min(depth, MAX_INDENT_LEVELS) * INDENT_PX }),
      }}
      className={cn(
        'group relative rounded-md text-sm',
        isSelected ? 'bg-accent text-accent-foreground' : 'hover:bg-muted',
      )}
    >
      {isSelected && <span aria-hidden className="absolute inset-y-1.5 left-0 w-0.5 rounded-full bg-brand" />}
      {isRenaming ? (
        <div className="flex-1 py-1 pl-1.5">
          <EditableText
            value={storedTitle}
            label="Conversation title"
            required
            editing
            onEditingChange={setIsRenaming}
            onCommit={(next) => onRename(threadId, next)}
            testId="conversation-title"
          />
        </div>
      ) : (
        <a
          href={viewPath({ threadId, step: null })}
          onClick={onClick}
          onDoubleClick={() => setIsRenaming(true)}
          aria-current={isSelected ? 'page' : undefined}
          title={title}
          data-testid="conversation-link"
          className="block min-w-0 flex-1 rounded-md px-3 py-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex items-start gap-1.5">
            {conversation.parent_thread_id !== null && (
              <GitBranch role="img" aria-label="branch" className="mt-1 size-3 shrink-0 text-muted-foreground" />
            )}
            {isRunning && (
              <span role="img" aria-label="replying" className="mt-1.5 size-1.5 shrink-0 animate-pulse rounded-full bg-brand" />
            )}
            {conversation.starred && (
              <Star role="img" aria-label="starred" data-testid="starred-mark" className="mt-1 size-3 shrink-0 fill-amber-400 text-amber-600" />
            )}
            <span data-testid="conversation-title" className={cn('line-clamp-2 min-w-0 break-words', isSelected && 'font-medium')}>
              {title}
            </span>
          </span>
          {conversation.branch_point_turn !== null && (
            <span data-testid="branched-at" className="block truncate text-xs text-brand">
              {conversation.branch_point_turn === 0
                ? 'alternative first message'
                : `branched at step ${conversation.branch_point_turn}`}
            </span>
          )}
          {conversation.owner && conversation.parent_thread_id === null && (
            <span data-testid="shared-by" className="block truncate text-xs text-muted-foreground">
              {conversation.owner.name} · {ROLE_LABELS[conversation.role].toLowerCase()}
            </span>
          )}
          <span className="block truncate text-xs text-muted-foreground">
            {conversation.turn_index === 0
              ? 'No messages yet'
              : `${conversation.turn_index} step${conversation.turn_index === 1 ? '' : 's'}`}{' '}
            · {formatRelative(conversation.updated_at)}
          </span>
        </a>
      )}
      {!isRenaming && alternatives.length > 0 && (
        <ul className="-mt-1 space-y-0.5 pb-1.5 pl-3 pr-1" aria-label={`Other replies in ${title}`}>
          {alternatives.map((group) => {
            const newest = group.threads[0]!;
            const isViewed = group.threads.some((t) => t.thread_id === selectedAlternativeId);
            return (
              <li key={group.step}>
                <a
                  href={viewPath({ threadId: newest.thread_id, step: null })}
                  data-testid="reply-alternatives"
                  data-step={group.step}
                  data-count={group.replyCount}
                  aria-current={isViewed ? 'page' : undefined}
                  title={`Open the newest of the ${group.replyCount} replies at step ${group.step}; page through them on the reply`}
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                    event.preventDefault();
                    onSelect(isViewed && selectedAlternativeId !== null ? selectedAlternativeId : newest.thread_id, { exact: true });
                  }}
                  className={cn(
                    'inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs text-muted-foreground hover:bg-background hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    isViewed && 'bg-background font-medium text-foreground',
                  )}
                >
                  <RefreshCw aria-hidden className="size-3" />
                  {group.replyCount} replies at step {group.step}
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {!isRenaming && canEdit && (
        <div
          data-testid="row-actions"
          className="absolute bottom-1 right-1 flex items-center rounded-md bg-muted/95 opacity-100 shadow-sm transition-opacity md:pointer-events-none md:opacity-0 md:group-focus-within:pointer-events-auto md:group-focus-within:opacity-100 md:group-hover:pointer-events-auto md:group-hover:opacity-100"
        >
          {canEdit && (
            <>
              <button
                type="button"
                title="Rename"
                aria-label={`Rename ${title}`}
                data-testid="rename-conversation"
                onClick={() => setIsRenaming(true)}
                className="rounded p-1 text-muted-foreground hover:bg-background hover:text-foreground"
              >
                <Pencil className="size-3.5" />
              </button>
              <button
                type="button"
                title={conversation.starred ? 'Unstar' : 'Star'}
                aria-label={`${conversation.starred ? 'Unstar' : 'Star'} ${title}`}
                aria-pressed={conversation.starred}
                data-testid="star-conversation"
                onClick={() => onStar(threadId, !conversation.starred)}
                className="rounded p-1 text-muted-foreground hover:bg-background hover:text-foreground"
              >
                <Star className={cn('size-3.5', conversation.starred && 'fill-amber-400 text-amber-600')} />
              </button>
              <button
                type="button"
                title={conversation.archived ? 'Restore' : 'Archive'}
                aria-label={`${conversation.archived ? 'Restore' : 'Archive'} ${title}`}
                data-testid={conversation.archived ? 'restore-conversation' : 'archive-conversation'}
                onClick={() => onArchive(threadId, !conversation.archived)}
                className="rounded p-1 text-muted-foreground hover:bg-background hover:text-foreground"
              >
                {conversation.archived ? <ArchiveRestore className="size-3.5" /> : <Archive className="size-3.5" />}
              </button>
            </>
          )}
          {conversation.role === 'owner' && (
            <button
              type="button"
              title="Delete"
              aria-label={`Delete ${title}`}
              data-testid="delete-conversation"
              onClick={() => onDelete(conversation)}
              className="rounded p-1 text-muted-foreground hover:bg-background hover:text-destructive"
            >
              <Trash2 className="size-3.5" />
            </button>
          )}
        </div>
      )}
    </li>
  );
});
