'use client';
import type { Replay } from '@trellis/domain';
import { Check, Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton, SkeletonList } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/http';
import { cn } from '@/lib/cn';
import { ReplayBar } from './replay-bar';
import { ReplayChange } from './replay-change';
import type { ReplayController } from './use-replay';

/**
 * The workspace column during a replay: the bar, the replayed change, and the workspace as that change
 * left it — read only, with what the change touched outlined. The live workspace is never written.
 */
export function ReplayPanel({
  replay,
  continueLabel,
}: {
  replay: ReplayController & { seq: number };
  continueLabel?: string;
}) {
  const { data, seq } = replay;
  return (
    <section
      aria-label="Replay"
      className="flex h-full min-h-0 flex-col"
      data-testid="replay-panel"
      aria-busy={replay.isFetching}
    >
      <header className="flex h-11 shrink-0 items-center gap-2 border-b px-4">
        <h2 className="text-sm font-semibold">
          Workspace <span className="font-normal text-muted-foreground">· replay</span>
        </h2>
        <span className="ml-auto rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand">Read only</span>
      </header>
      <ReplayBar
        seq={seq}
        data={data}
        isPlaying={replay.isPlaying}
        onGoTo={replay.goTo}
        onTogglePlay={replay.togglePlay}
        onClose={replay.close}
        onContinue={replay.continueFromHere}
        {...(continueLabel !== undefined ? { continueLabel } : {})}
      />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {replay.error !== null && data === undefined ? (
          <div role="alert" className="space-y-2 px-4 py-6 text-sm" data-testid="replay-error">
            <p className="text-destructive">Could not replay this change: {errorMessage(replay.error)}</p>
            <Button size="sm" variant="outline" onClick={() => replay.goTo(1)}>
              Replay from the first change
            </Button>
          </div>
        ) : data === undefined ? (
          <div className="space-y-4 px-4 py-4" data-testid="replay-loading">
            <Skeleton className="h-16" />
            <Skeleton className="h-56" />
            <SkeletonList rows={3} />
          </div>
        ) : data.total === 0 ? (
          <p className="px-4 py-6 text-sm text-muted-foreground">This path has no changes to replay yet.</p>
        ) : (
          <>
            <ReplayChange replay={data} />
            <ReplayedWorkspace replay={data} />
          </>
        )}
      </div>
    </section>
  );
}

function ReplayedWorkspace({ replay }: { replay: Replay }) {
  const { workspace, diff, change } = replay;
  const touched = (target: string) =>
    diff.target === target || (target === 'document' && diff.target === 'document_title');
  const isTouchedItem = (kind: 'preference' | 'todo', key: string | null) =>
    change.kind === kind && key !== null && key === change.key;
  return (
    <div data-testid="replay-workspace" className="space-y-4 px-4 py-4 text-sm">
      <Part title="Objective" isTouched={touched('objective')}>
        {workspace.objective ? (
          <p>{workspace.objective}</p>
        ) : (
          <p className="text-muted-foreground">No objective.</p>
        )}
      </Part>
      <Part
        title={workspace.document.title ? `Document · ${workspace.document.title}` : 'Document'}
        isTouched={touched('document')}
      >
        <div
          data-testid="replay-document"
          className="max-h-96 overflow-y-auto whitespace-pre-wrap break-words font-mono text-xs leading-relaxed"
        >
          {workspace.document.content || <span className="text-muted-foreground">Empty.</span>}
        </div>
      </Part>
      <Part title="Preferences" isTouched={diff.target === 'preference' && change.key === null}>
        {workspace.preferences.length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <ul className="space-y-1">
            {workspace.preferences.map((p, i) => (
              <li
                key={p.key ?? i}
                className={cn(
                  'flex items-center gap-1.5 rounded px-1',
                  isTouchedItem('preference', p.key) && 'bg-brand-soft',
                )}
              >
                {p.locked && <Lock aria-label="locked" className="size-3" />}
                {p.text}
              </li>
            ))}
          </ul>
        )}
      </Part>
      <Part title="Todos" isTouched={diff.target === 'todo' && change.key === null}>
        {workspace.todos.length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <ul className="space-y-1" data-testid="replay-todos">
            {workspace.todos.map((t, i) => (
              <li
                key={t.key ?? i}
                style={{ paddingLeft: `${t.depth * 1 + 0.25}rem` }}
                className={cn(
                  'flex items-center gap-1.5 rounded',
                  isTouchedItem('todo', t.key) && 'bg-brand-soft',
                )}
              >
                <Check
                  aria-label={t.done ? 'done' : 'open'}
                  className={cn('size-3', !t.done && 'opacity-20')}
                />
                <span className={cn(t.done && 'text-muted-foreground line-through')}>{t.text}</span>
              </li>
            ))}
          </ul>
        )}
      </Part>
    </div>
  );
}

/** A titled part of a read-only workspace (replay, a shared link); `isTouched` outlines what a change touched. */
export function Part({ title, isTouched = false, children }: { title: string; isTouched?: boolean; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      data-touched={isTouched}
      className={cn('space-y-1.5 rounded-md p-2', isTouched ? 'ring-2 ring-brand/60' : 'ring-1 ring-border')}
    >
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{title}</h3>
      {children}
    </section>
  );
}
