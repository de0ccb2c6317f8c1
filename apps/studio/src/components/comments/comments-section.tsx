'use client';
import type { Comment } from '@trellis/domain';
import { CheckCheck, MessageSquare, RotateCcw, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Markdown } from '@/components/ui/markdown';
import { errorMessage } from '@/lib/api/http';
import { cn } from '@/lib/cn';
import { WorkspaceSection } from '@/components/workspace/workspace-section';
import type { PassageSelection } from './comment-extension';
import type { CommentsController } from './use-comments';

type Filter = 'open' | 'resolved' | 'mine';

/**
 * The path's comments under its document (docs/comments.md): a list filtered open / resolved / mine,
 * each with its anchor, replies, resolve and delete; a composer for the selected passage (also
 * Ctrl/Cmd+Alt+M in the editor) or a step. Comments are not workspace changes: nothing here makes a
 * step or touches authorship.
 */
export function CommentsSection({
  comments,
  userId,
  selection,
  composing,
  onComposed,
}: {
  comments: CommentsController;
  userId: string | null;
  /** The editor's current non-empty selection, if any. */
  selection: PassageSelection | null;
  /** A passage the person asked to comment on (the editor's shortcut); the composer opens on it. */
  composing: PassageSelection | null;
  onComposed: () => void;
}) {
  const [filter, setFilter] = useState<Filter>('open');
  const all = comments.list.data ?? [];
  const heads = all.filter((c) => c.parent_id === null);
  const shown = heads.filter((c) =>
    filter === 'open' ? !c.resolved : filter === 'resolved' ? c.resolved : c.author.user_id === userId,
  );
  const repliesOf = (id: string) => all.filter((c) => c.parent_id === id);
  const openCount = heads.filter((c) => !c.resolved).length;
  return (
    <WorkspaceSection
      title={`Comments${openCount > 0 ? ` (${openCount} open)` : ''}`}
      icon={MessageSquare}
      testId="comments-section"
    >
      <Composer comments={comments} selection={selection} composing={composing} onComposed={onComposed} />
      <div role="radiogroup" aria-label="Show comments" className="my-2 flex gap-1 text-xs">
        {(['open', 'resolved', 'mine'] as const).map((f) => (
          <button
            key={f}
            type="button"
            role="radio"
            aria-checked={filter === f}
            data-testid={`comments-filter-${f}`}
            onClick={() => setFilter(f)}
            className={cn('rounded-full border px-2 py-0.5', filter === f ? 'bg-accent font-medium' : 'text-muted-foreground hover:bg-accent')}
          >
            {f === 'open' ? 'Open' : f === 'resolved' ? 'Resolved' : 'Mine'}
          </button>
        ))}
      </div>
      {comments.list.isLoading ? (
        <p className="text-xs text-muted-foreground">Loading comments…</p>
      ) : comments.list.isError ? (
        <p role="alert" className="text-xs text-destructive">
          Could not load the comments: {errorMessage(comments.list.error)}
        </p>
      ) : shown.length === 0 ? (
        <p className="text-xs text-muted-foreground" data-testid="comments-empty">
          {filter === 'open' ? 'No open comments. Select text in the document and press Ctrl+Alt+M (⌘⌥M) to comment on it.' : 'None.'}
        </p>
      ) : (
        <ul className="space-y-2" data-testid="comment-list">
          {shown.map((c) => (
            <CommentThread key={c.comment_id} head={c} replies={repliesOf(c.comment_id)} comments={comments} userId={userId} />
          ))}
        </ul>
      )}
    </WorkspaceSection>
  );
}

function Composer({
  comments,
  selection,
  composing,
  onComposed,
}: {
  comments: CommentsController;
  selection: PassageSelection | null;
  composing: PassageSelection | null;
  onComposed: () => void;
}) {
  const ids = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [about, setAbout] = useState<PassageSelection | null>(null);
  const [body, setBody] = useState('');
  useEffect(() => {
    if (composing === null) return;
    setAbout(composing);
    onComposed();
    requestAnimationFrame(() => input.current?.focus());
  }, [composing, onComposed]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!about || body.trim() === '') return;
    comments.create.mutate(
      { anchor: { kind: 'passage', start: about.start, end: about.end, quote: about.quote }, body },
      {
        onSuccess: () => {
          setBody('');
          setAbout(null);
        },
      },
    );
  };
  if (about === null) {
    return (
      <Button
        size="sm"
        variant="outline"
        data-testid="comment-on-selection"
        disabled={selection === null}
        title={selection === null ? 'Select text in the document first' : 'Comment on the selected text (Ctrl+Alt+M)'}
        onClick={() => {
          setAbout(selection);
          requestAnimationFrame(() => input.current?.focus());
        }}
      >
        <MessageSquare aria-hidden /> Comment on the selection
      </Button>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-1.5 rounded-md border p-2" data-testid="comment-composer">
      <p className="line-clamp-2 border-l-2 border-orange-700 pl-2 text-xs text-muted-foreground" data-testid="comment-quote">
        {about.quote}
      </p>
      <label htmlFor={`${ids}-body`} className="sr-only">
        Your comment
      </label>
      <textarea
        id={`${ids}-body`}
        ref={input}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            submit(e);
          } else if (e.key === 'Escape') setAbout(null);
        }}
        rows={2}
        maxLength={10_000}
        placeholder="Your comment (@name tells a member)"
        data-testid="comment-body"
        className="w-full rounded-md border bg-background px-2 py-1 text-sm"
      />
      {comments.create.isError && (
        <p role="alert" className="text-xs text-destructive">
          {errorMessage(comments.create.error)}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={comments.create.isPending || body.trim() === ''} data-testid="comment-submit">
          Comment
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setAbout(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function anchorLabel(c: Comment): string {
  if (c.anchor.kind === 'step') return `Step ${c.anchor.turn}`;
  if (c.anchor.kind === 'message') return `A message of step ${c.anchor.turn}`;
  return c.anchor.orphaned ? `“${c.anchor.quote}” (the text is gone${c.anchor.removed_at_turn ? `, step ${c.anchor.removed_at_turn}` : ''})` : `“${c.anchor.quote}”`;
}

function CommentThread({
  head,
  replies,
  comments,
  userId,
}: {
  head: Comment;
  replies: Comment[];
  comments: CommentsController;
  userId: string | null;
}) {
  const [reply, setReply] = useState('');
  const ids = useId();
  const sendReply = (event: FormEvent) => {
    event.preventDefault();
    if (reply.trim() === '') return;
    comments.create.mutate({ body: reply, parent_id: head.comment_id }, { onSuccess: () => setReply('') });
  };
  return (
    <li className="space-y-1 rounded-md border p-2 text-sm" data-testid="comment" data-comment-id={head.comment_id} data-resolved={head.resolved}>
      <p className="truncate text-xs text-muted-foreground" data-testid="comment-anchor">
        {anchorLabel(head)}
      </p>
      {[head, ...replies].map((c) => (
        <div key={c.comment_id} className={cn(c.parent_id !== null && 'ml-3 border-l pl-2')} data-testid={c.parent_id === null ? 'comment-head' : 'comment-reply'}>
          <p className="text-xs">
            <span className="font-medium">{c.author.name}</span>
            {c.author.user_id === userId && (
              <button
                type="button"
                aria-label="Delete this comment"
                data-testid="comment-delete"
                className="ml-1 inline-flex align-middle text-muted-foreground hover:text-destructive"
                onClick={() => comments.remove.mutate(c.comment_id)}
              >
                <Trash2 className="size-3" />
              </button>
            )}
          </p>
          <Markdown source={c.body} className="text-sm" />
        </div>
      ))}
      <div className="flex items-center gap-2">
        <form onSubmit={sendReply} className="flex min-w-0 flex-1 gap-1">
          <label htmlFor={`${ids}-reply`} className="sr-only">
            Reply
          </label>
          <input
            id={`${ids}-reply`}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            placeholder="Reply…"
            data-testid="comment-reply-input"
            className="h-7 min-w-0 flex-1 rounded-md border bg-background px-2 text-xs"
          />
        </form>
        <Button
          size="sm"
          variant="ghost"
          data-testid={head.resolved ? 'comment-reopen' : 'comment-resolve'}
          onClick={() => comments.update.mutate({ commentId: head.comment_id, body: { resolved: !head.resolved } })}
        >
          {head.resolved ? <RotateCcw aria-hidden /> : <CheckCheck aria-hidden />} {head.resolved ? 'Reopen' : 'Resolve'}
        </Button>
      </div>
    </li>
  );
}
