'use client';
import { plural, type GraphNode, type GraphThread } from '@trellis/domain';
import { ExternalLink, GitCompareArrows, GitPullRequestArrow, RotateCcw, X } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { LaneDot } from './card-parts';
import { replyLine } from './reply-line';
import type { AppliedFrom, CommitCardData, StubCardData } from './trajectory-layout';

export type DetailTarget =
  | {
      readonly kind: 'commit';
      readonly id: string;
      readonly step: GraphNode;
      readonly data: CommitCardData;
      readonly thread: GraphThread | undefined;
    }
  | {
      readonly kind: 'stub';
      readonly id: string;
      readonly data: StubCardData;
      readonly thread: GraphThread | undefined;
    };

export interface StepDetailProps {
  target: DetailTarget;
  /** The side of the canvas it sits on: away from the card it describes. */
  side: 'left' | 'right';
  /** Opened with the pointer: focus moves to its first action (from the keyboard it stays put). */
  takesFocus?: boolean;
  onClose: () => void;
  onContinueFrom: (step: GraphNode) => void;
  onOpenThread: (threadId: string) => void;
  /** "Compare with…": the next card picked is compared with this step (absent: no compare). */
  onCompareWith?: (nodeId: string) => void;
  /**
   * "Bring into the current path…": opens the compare of "you are here" against this step, ready to
   * apply this step's items onto the current path (absent: not offered).
   */
  onBringIntoCurrent?: (nodeId: string) => void;
  /** An apply step's provenance: the step its items came from (its `applied_from`). */
  appliedFrom?: AppliedFrom | null;
  /** Selects another step of the canvas (the "Applied from" link). */
  onShowStep?: (nodeId: string) => void;
  /** "What changed" and "Discarded here" for a step, rendered by whoever can fetch them. */
  renderStepChanges?: (step: GraphNode) => ReactNode;
  /** The step's reply is being written now (here or in another tab): it reads "Replying…". */
  isReplying?: boolean;
}

const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The selected step, with the two ways forward from it: restore it, or open the path it is on. */
export function StepDetail({
  target,
  side,
  takesFocus = false,
  onClose,
  onContinueFrom,
  onOpenThread,
  onCompareWith,
  onBringIntoCurrent,
  appliedFrom,
  onShowStep,
  renderStepChanges,
  isReplying = false,
}: StepDetailProps) {
  const { data, thread } = target;
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!takesFocus) return;
    const first = ref.current?.querySelector<HTMLElement>('[data-detail-actions] button:not(:disabled)');
    (first ?? ref.current)?.focus({ preventScroll: true });
  }, [takesFocus, target.id]);
  const canOpenPath = !data.isDisplayed && thread !== undefined && !thread.is_deleted;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };
  return (
    <section
      ref={ref}
      tabIndex={-1}
      data-testid="trajectory-detail"
      data-node-id={target.id}
      aria-label={`Step ${data.label} details`}
      onKeyDown={onKeyDown}
      data-side={side}
      className={cn(
        'absolute top-2 z-10 flex outline-none max-h-[calc(100%-1rem)] w-[21.5rem] max-w-[calc(100%-1rem)] flex-col gap-2 overflow-y-auto rounded-lg border bg-popover p-3 text-xs text-popover-foreground shadow-lg',
        side === 'left' ? 'left-2' : 'right-2',
      )}
    >
      <header className="flex items-start gap-2">
        <span className="mt-1">
          <LaneDot isDisplayed={data.isDisplayed} isHollow={target.kind === 'stub'} />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="flex flex-wrap items-center gap-1.5 text-sm font-semibold">
            Step <span className={cn('font-mono', data.isDisplayed && 'text-brand')}>{data.label}</span>
            {data.isCurrent && (
              <span className="rounded-full bg-brand px-1.5 text-[10px] font-semibold uppercase leading-4 text-white">
                You are here
              </span>
            )}
          </h3>
          <p className="truncate text-muted-foreground" title={thread?.title}>
            {target.kind === 'commit' && (
              <time dateTime={target.step.captured_at}>
                {TIME_FORMAT.format(new Date(target.step.captured_at))} ·{' '}
              </time>
            )}
            {data.isDisplayed ? 'displayed path' : (thread?.title ?? 'another path')}
            {thread?.is_deleted && ' (deleted)'}
          </p>
        </div>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Close step details"
          onClick={onClose}
          className="-mr-1 -mt-1"
        >
          <X />
        </Button>
      </header>

      {/* The ways forward come first, so they are in reach at every panel height. */}
      <div data-detail-actions className="flex flex-wrap gap-1.5 [&_button]:h-7 [&_button]:px-2.5">
        {target.kind === 'commit' && (
          <Button
            size="sm"
            data-testid="continue-from-here"
            disabled={data.isCurrent}
            title={
              data.isCurrent ? 'You are here: send a message to continue' : 'Restore the studio to this step'
            }
            onClick={() => onContinueFrom(target.step)}
            className="bg-brand text-white hover:bg-brand/90"
          >
            <RotateCcw aria-hidden />
            Continue from here
          </Button>
        )}
        {canOpenPath && (
          <Button
            size="sm"
            variant="outline"
            data-testid="open-path"
            onClick={() => onOpenThread(data.thread_id)}
          >
            <ExternalLink aria-hidden />
            Open this path
          </Button>
        )}
        {target.kind === 'commit' && onCompareWith !== undefined && (
          <Button
            size="sm"
            variant="outline"
            data-testid="compare-with"
            title="Then pick another step (or shift-click a card)"
            onClick={() => onCompareWith(target.id)}
          >
            <GitCompareArrows aria-hidden />
            Compare with…
          </Button>
        )}
        {target.kind === 'commit' && onBringIntoCurrent !== undefined && !data.isCurrent && (
          <Button
            size="sm"
            variant="outline"
            data-testid="bring-into-current"
            title="Compare the current step with this one, then tick what to apply onto the current path"
            onClick={() => onBringIntoCurrent(target.id)}
          >
            <GitPullRequestArrow aria-hidden />
            Bring into the current path…
          </Button>
        )}
      </div>

      {appliedFrom != null && (
        <p data-testid="step-applied-from" className="rounded-md border border-dashed px-2 py-1.5">
          Applied from{' '}
          {appliedFrom.isShown && onShowStep !== undefined ? (
            <button
              type="button"
              data-testid="step-applied-from-link"
              className="font-mono font-semibold text-brand underline underline-offset-2 hover:no-underline"
              onClick={() => onShowStep(appliedFrom.nodeId)}
            >
              {appliedFrom.label}
            </button>
          ) : (
            <span className="font-mono font-semibold">{appliedFrom.label}</span>
          )}
          {appliedFrom.summary ? <span className="text-muted-foreground">: {appliedFrom.summary}</span> : null}
        </p>
      )}

      {target.kind === 'commit' ? (
        <>
          {/* An apply step has no question and no reply: its provenance line above says what it is. */}
          {appliedFrom == null && (
            <>
              <DetailText heading="Question" text={target.step.user_message} empty="(no message)" />
              <ReplyText step={target.step} isReplying={isReplying} />
            </>
          )}
          <p className="text-muted-foreground">
            {plural(target.step.tool_count, 'tool call')} · {plural(target.step.artifact_count, 'artifact')}
          </p>
          {target.step.turn_index >= 1 && renderStepChanges?.(target.step)}
        </>
      ) : (
        <p className="text-muted-foreground">
          A new path with no message yet{thread?.reason ? ` — ${thread.reason}` : ''}. Its first message
          becomes step <span className="font-mono">{data.label}</span>.
        </p>
      )}

    </section>
  );
}

/**
 * The reply, or what became of it: a stopped step reads "Stopped", and one whose reply is being
 * written "Replying…", never "No reply yet".
 */
function ReplyText({ step, isReplying }: { step: GraphNode; isReplying: boolean }) {
  const { text, note } = replyLine(step.reply_preview, step.reply_status, step.applied_from !== null, isReplying);
  const heading = text !== null && note !== null ? `Reply (${note})` : 'Reply';
  const empty = note === null ? '' : note.charAt(0).toUpperCase() + note.slice(1);
  return <DetailText heading={heading} text={text} empty={empty} />;
}

function DetailText({ heading, text, empty }: { heading: string; text: string | null; empty: string }) {
  const value = text?.trim();
  return (
    <div>
      <h4 className="text-[10px] font-semibold uppercase tracking-wide text-muted-foreground">{heading}</h4>
      <p
        className={cn(
          'line-clamp-4 whitespace-pre-line break-words',
          !value && 'italic text-muted-foreground',
        )}
      >
        {value || empty}
      </p>
    </div>
  );
}
