'use client';
import type { Replay, ReplayDiffPart } from '@trellis/domain';
import { formatMessageTime } from '@/lib/format-time';
import { cn } from '@/lib/cn';

export function actorName(actor: Replay['change']['actor']): string {
  return actor === 'person' ? 'You' : actor === 'agent' ? 'The agent' : 'The system';
}

const VIA: Record<Replay['change']['via'], string> = {
  editor: 'in the editor',
  agent_tool: 'with a tool',
  apply: 'by an apply',
  preview_edit: 'in a restored step',
  import: 'by an import',
  migration: 'by a migration',
  retry: 'taking back a stopped attempt before its retry',
};

/** The replayed change: who made it, how, in which step and when, and its marked diff. */
export function ReplayChange({ replay }: { replay: Replay }) {
  const { change, diff, step } = replay;
  return (
    <section
      aria-label={`Change ${replay.seq}`}
      data-testid="replay-change"
      data-seq={replay.seq}
      data-actor={change.actor}
      data-target={diff.target}
      className="space-y-2 border-b px-4 py-3"
    >
      <p className="text-sm">
        <span
          data-testid="replay-actor"
          className={cn(
            'mr-1.5 rounded-full px-2 py-0.5 text-xs font-medium',
            change.actor === 'agent' ? 'bg-brand-soft text-brand' : 'bg-secondary text-secondary-foreground',
          )}
        >
          {actorName(change.actor)}
        </span>
        <span data-testid="replay-summary">{diff.summary}</span>{' '}
        <span className="text-muted-foreground">{VIA[change.via]}</span>
        {change.reverted && (
          <span
            data-testid="replay-reverted"
            title="This change belongs to an attempt that was stopped; its retry took it back"
            className="ml-1.5 rounded-full border px-2 py-0.5 text-xs text-muted-foreground"
          >
            reverted by the retry
          </span>
        )}
      </p>
      <p className="text-xs text-muted-foreground">
        Step {step.label}
        {step.message ? ` · “${step.message}”` : ' · before the first message'} ·{' '}
        <time dateTime={change.created_at}>{formatMessageTime(change.created_at)}</time>
      </p>
      {diff.parts.length > 0 && <MarkedDiff parts={diff.parts} />}
    </section>
  );
}

export function MarkedDiff({ parts }: { parts: ReplayDiffPart[] }) {
  return (
    <div
      data-testid="replay-diff"
      className="max-h-60 overflow-y-auto whitespace-pre-wrap break-words rounded-md border bg-background p-2 font-mono text-xs leading-relaxed"
    >
      {parts.map((part, i) =>
        part.kind === 'insert' ? (
          <ins
            key={i}
            className="bg-green-100 text-green-900 no-underline dark:bg-green-950 dark:text-green-100"
            data-testid="replay-insert"
          >
            {part.text}
          </ins>
        ) : part.kind === 'delete' ? (
          <del
            key={i}
            className="bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100"
            data-testid="replay-delete"
          >
            {part.text}
          </del>
        ) : (
          <span key={i} className="text-muted-foreground">
            {part.text}
          </span>
        ),
      )}
    </div>
  );
}
