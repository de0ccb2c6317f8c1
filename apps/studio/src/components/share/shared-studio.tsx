'use client';
import type { GraphNode, Message, SharedView } from '@trellis/domain';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { Check, Download, Eye, GitMerge, History, Lock, LogIn, Play } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { TrajectoryPanel } from '@/components/trajectory';
import { AssistantBubble, UserBubble } from '@/components/chat/message-row';
import { ToolChip } from '@/components/chat/tool-chip';
import { MessageTime } from '@/components/chat/message-time';
import { Part, ReplayPanel } from '@/components/replay/replay-panel';
import { AuthorshipLegend } from '@/components/workspace/authorship/authorship-legend';
import { AuthorshipMarkdown } from '@/components/workspace/authorship/authorship-markdown';
import { spanContext } from '@/components/workspace/authorship/span-title';
import { Button } from '@/components/ui/button';
import { Markdown } from '@/components/ui/markdown';
import { Skeleton, SkeletonList } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api/http';
import { sharedApi, type SharedPlace } from '@/lib/api/shares';
import { cn } from '@/lib/cn';
import { useSharedReplay } from './use-shared-replay';
import { TrellisMark } from '@/components/ui/trellis-mark';

/**
 * What a share link's reader sees, no account needed (docs/sharing.md): the path's trajectory, its
 * transcript up to the shared step, the workspace after it with the authorship overlay, replay, and
 * the document as Markdown. Nothing here writes; "Continue in my account" copies the path into the
 * reader's own account (after signing in, which comes back here).
 */
export function SharedStudio({ token, isSignedIn }: { token: string; isSignedIn: boolean }) {
  const [place, setPlace] = useState<SharedPlace>({});
  const view = useQuery({
    queryKey: ['shared', token, place.thread ?? null, place.turn ?? null],
    queryFn: ({ signal }) => sharedApi.view(token, place, signal),
    placeholderData: keepPreviousData,
  });
  const data = view.data;
  const openStep = (turn: number) => setPlace((current) => ({ ...current, turn }));
  const replay = useSharedReplay(token, data?.share.scope === 'family' ? data.thread_id : undefined, openStep);
  const [isMapCollapsed, setMapCollapsed] = useState(false);

  if (view.isError && !data) {
    const gone = isApiError(view.error) && view.error.isNotFound;
    return (
      <main className="flex h-full items-center justify-center p-6" data-testid="shared-error">
        <div className="max-w-md space-y-2 text-center">
          <h1 className="text-lg font-semibold">{gone ? 'This link no longer works' : 'This link could not be opened'}</h1>
          <p className="text-sm text-muted-foreground">
            {gone ? 'It was revoked or has expired. Ask the person who shared it for a new one.' : errorMessage(view.error)}
          </p>
        </div>
      </main>
    );
  }

  const currentNode = data ? shownNode(data) : null;
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="shared-studio" data-scope={data?.share.scope}>
      <SharedHeader token={token} data={data} place={place} isSignedIn={isSignedIn} />
      {data && data.newer_steps > 0 && (
        <p role="status" data-testid="shared-newer-steps" className="border-b bg-muted/40 px-4 py-1.5 text-xs text-muted-foreground">
          This path has {data.newer_steps} newer {data.newer_steps === 1 ? 'step' : 'steps'} that {data.newer_steps === 1 ? 'is' : 'are'} not part of this link.
        </p>
      )}
      <TrajectoryPanel
        graph={data?.graph}
        isLoading={view.isLoading}
        error={view.error}
        displayedThreadId={data?.thread_id ?? ''}
        currentNodeId={currentNode?.id ?? null}
        onSelectStep={(_id, node) => setPlace(placeOf(data, node))}
        onContinueFrom={(node) => setPlace(placeOf(data, node))}
        onOpenThread={(threadId) => setPlace({ thread: threadId })}
        collapsed={isMapCollapsed}
        onToggleCollapsed={() => setMapCollapsed((collapsed) => !collapsed)}
        followTurn={data?.turn ?? null}
      />
      <main className="grid min-h-0 flex-1 grid-cols-1 overflow-y-auto md:grid-cols-2 md:overflow-hidden">
        <section aria-label="Conversation" className="min-h-0 border-b md:overflow-y-auto md:border-b-0 md:border-r">
          <h2 className="sr-only">Conversation</h2>
          {data ? <SharedTranscript token={token} place={place} data={data} /> : <SkeletonList rows={4} />}
        </section>
        <section aria-label="Workspace" className="min-h-0 md:overflow-y-auto">
          {replay.seq !== null ? (
            <ReplayPanel replay={{ ...replay, seq: replay.seq }} continueLabel="Show this step" />
          ) : data ? (
            <SharedWorkspace data={data} onReplay={replay.open} />
          ) : (
            <div className="space-y-3 p-4">
              <Skeleton className="h-10" />
              <Skeleton className="h-56" />
            </div>
          )}
        </section>
      </main>
    </div>
  );
}

/** The card of the shown step: on the shown path (its own turns or an ancestor's), at the shown turn. */
function shownNode(data: SharedView): GraphNode | null {
  return data.graph.nodes.find((node) => node.is_on_active_path && node.turn_index === data.turn) ?? null;
}

/** A card on the shown path opens that step of it; a card of another path (a family link) opens that path there. */
function placeOf(data: SharedView | undefined, node: GraphNode): SharedPlace {
  if (!data || data.share.scope === 'path') return { turn: node.turn_index };
  return node.is_on_active_path ? { thread: data.thread_id, turn: node.turn_index } : { thread: node.thread_id, turn: node.turn_index };
}

function SharedHeader({
  token,
  data,
  place,
  isSignedIn,
}: {
  token: string;
  data: SharedView | undefined;
  place: SharedPlace;
  isSignedIn: boolean;
}) {
  const router = useRouter();
  const copy = useMutation({
    mutationFn: () => sharedApi.copy(token, place.thread === undefined || place.thread === data?.thread_id ? data?.turn : undefined),
    onSuccess: ({ thread_id }) => router.push(`/c/${encodeURIComponent(thread_id)}`),
  });
  const here = `/s/${token}`;
  const isOwnPath = data !== undefined && (data.share.scope === 'path' || place.thread === undefined);
  return (
    <header className="flex min-h-12 shrink-0 flex-wrap items-center justify-between gap-2 border-b px-3 py-1.5 md:px-4">
      <div className="flex min-w-0 items-center gap-2">
        <TrellisMark />
        <span className="text-muted-foreground">/</span>
        <h1 className="truncate text-sm font-medium" data-testid="shared-title">
          {data ? data.title : 'Shared link'}
        </h1>
        <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand" data-testid="shared-badge">
          <Eye aria-hidden className="size-3" />
          {data?.share.scope === 'family' ? 'Shared family' : 'Shared path'} · read only
        </span>
      </div>
      <div className="flex items-center gap-2">
        {data && (
          <Button asChild variant="ghost" size="sm">
            <a href={sharedApi.documentHref(token, place)} data-testid="shared-download" title="The document of this step, as Markdown">
              <Download aria-hidden /> <span className="hidden sm:inline">Document (.md)</span>
              <span className="sr-only sm:hidden">Download the document</span>
            </a>
          </Button>
        )}
        {isSignedIn ? (
          <Button
            size="sm"
            data-testid="shared-copy"
            disabled={!data || !isOwnPath || copy.isPending}
            title={isOwnPath ? 'A copy of this path as of this step, in your account' : 'Open the shared path to continue it'}
            onClick={() => copy.mutate()}
          >
            <GitMerge aria-hidden /> {copy.isPending ? 'Copying…' : 'Continue in my account'}
          </Button>
        ) : (
          <Button asChild size="sm" data-testid="shared-sign-in">
            <a href={`/sign-in?next=${encodeURIComponent(here)}`}>
              <LogIn aria-hidden /> Sign in to continue
            </a>
          </Button>
        )}
      </div>
      {copy.isError && (
        <p role="alert" className="w-full text-xs text-destructive" data-testid="shared-copy-error">
          {errorMessage(copy.error)}
        </p>
      )}
    </header>
  );
}

function SharedTranscript({ token, place, data }: { token: string; place: SharedPlace; data: SharedView }) {
  const labels = useMemo(() => new Map(data.graph.nodes.filter((n) => n.is_on_active_path).map((n) => [n.turn_index, n.label])), [data.graph]);
  // Older steps, a page at a time, above the newest ones the view carries.
  const earlier = useInfiniteQuery({
    queryKey: ['shared', token, 'earlier', data.thread_id, data.turn],
    queryFn: ({ pageParam, signal }) => sharedApi.earlier(token, { ...place, turn: data.turn }, pageParam, signal),
    initialPageParam: data.messages[0]?.turn_index ?? 1,
    getNextPageParam: (page) => (page.has_more && page.messages[0] ? page.messages[0].turn_index : undefined),
    enabled: false,
  });
  const older = (earlier.data?.pages ?? []).toReversed().flatMap((page) => page.messages);
  const hasMore = earlier.data === undefined ? data.has_earlier_steps : earlier.hasNextPage;
  const messages = [...older, ...data.messages];
  if (messages.length === 0) return <p className="p-4 text-sm text-muted-foreground">No messages up to this step.</p>;
  return (
    <ol className="space-y-4 p-4" data-testid="shared-messages">
      {hasMore && (
        <li className="text-center">
          <Button
            size="sm"
            variant="outline"
            data-testid="shared-earlier"
            disabled={earlier.isFetching}
            onClick={() => void (earlier.data === undefined ? earlier.refetch() : earlier.fetchNextPage())}
          >
            {earlier.isFetching ? 'Loading…' : 'Show earlier steps'}
          </Button>
        </li>
      )}
      {messages.map((message) => (
        <li key={message.id}>
          <SharedMessage message={message} label={labels.get(message.turn_index)} />
        </li>
      ))}
    </ol>
  );
}

function SharedMessage({ message, label }: { message: Message; label: string | undefined }) {
  if (message.role === 'system') {
    return (
      <p className="mx-auto flex max-w-[85%] items-start justify-center gap-1.5 rounded-2xl border border-dashed bg-muted/40 px-3 py-1 text-center text-xs text-muted-foreground" data-testid="message-system">
        <GitMerge aria-hidden className="mt-px size-3.5 shrink-0 text-brand" />
        <span className="min-w-0 break-words">{message.content.split('\n')[0]}</span>
      </p>
    );
  }
  if (message.role === 'user') {
    return (
      <UserBubble testId="message-user" turnIndex={message.turn_index} content={message.content}>
        <div className="flex items-center gap-2 text-[11px] text-muted-foreground">
          <MessageTime iso={message.created_at} />
          {label !== undefined && <span className="font-mono" data-testid="step-label">Step {label}</span>}
        </div>
      </UserBubble>
    );
  }
  return (
    <AssistantBubble testId="message-assistant" turnIndex={message.turn_index} status={message.status}>
      {message.tool_calls.length > 0 && (
        <div className="flex flex-wrap gap-1.5" data-testid="tool-chips">
          {message.tool_calls.map((call) => (
            <ToolChip key={call.id} name={call.name} args={call.args} result={call.result} isError={call.is_error} />
          ))}
        </div>
      )}
      {message.content && <Markdown source={message.content} className="text-sm" />}
      <div className="flex items-center gap-2 text-[11px] text-muted-foreground">
        <MessageTime iso={message.created_at} />
        {message.status !== 'complete' && <span className="rounded bg-muted px-1.5">{message.status === 'failed' ? 'Failed' : 'Stopped'}</span>}
      </div>
    </AssistantBubble>
  );
}

function SharedWorkspace({ data, onReplay }: { data: SharedView; onReplay: () => void }) {
  const { workspace, authorship } = data;
  const [isOverlayOn, setOverlayOn] = useState(true);
  const context = useMemo(() => spanContext(authorship), [authorship]);
  const label = shownNode(data)?.label ?? String(data.turn);
  return (
    <div className="space-y-4 p-4 text-sm" data-testid="shared-workspace">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold">
          Workspace <span className="font-normal text-muted-foreground">· after step {label}</span>
        </h2>
        <span className="flex-1" />
        <Button size="sm" variant="outline" aria-pressed={isOverlayOn} data-testid="shared-authorship-toggle" onClick={() => setOverlayOn((on) => !on)}>
          <History aria-hidden /> Who wrote what
        </Button>
        <Button size="sm" variant="outline" data-testid="replay-open" onClick={onReplay}>
          <Play aria-hidden /> Replay
        </Button>
      </div>
      <Part title="Objective">{workspace.objective ? <p>{workspace.objective}</p> : <p className="text-muted-foreground">No objective.</p>}</Part>
      <Part title={workspace.document.title ? `Document · ${workspace.document.title}` : 'Document'}>
        {workspace.document.content === '' ? (
          <p className="text-muted-foreground">Empty.</p>
        ) : isOverlayOn ? (
          <>
            <AuthorshipLegend authorship={authorship} />
            <AuthorshipMarkdown source={workspace.document.content} authorship={authorship} context={context} />
          </>
        ) : (
          <Markdown source={workspace.document.content} className="text-sm" />
        )}
      </Part>
      <Part title="Preferences">
        {workspace.preferences.length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <ul className="space-y-1">
            {workspace.preferences.map((p) => (
              <li key={p.id} className="flex items-center gap-1.5">
                {p.locked && <Lock aria-label="locked" className="size-3" />}
                {p.text}
              </li>
            ))}
          </ul>
        )}
      </Part>
      <Part title="Todos">
        {workspace.todos.length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <ul className="space-y-1" data-testid="shared-todos">
            {workspace.todos.map((t) => (
              <li key={t.id} style={{ paddingLeft: `${t.depth + 0.25}rem` }} className="flex items-center gap-1.5">
                <Check aria-label={t.done ? 'done' : 'open'} className={cn('size-3', !t.done && 'opacity-20')} />
                <span className={cn(t.done && 'text-muted-foreground line-through')}>{t.text}</span>
              </li>
            ))}
          </ul>
        )}
      </Part>
    </div>
  );
}
