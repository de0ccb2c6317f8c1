'use client';
import type { NodeProps } from '@xyflow/react';
import { FileText, Wrench } from 'lucide-react';
import { memo } from 'react';
import { cn } from '@/lib/cn';
import { cardClassName, CardHandles, HereBadge, LaneDot, stepDomId } from './card-parts';
import { LaneName } from './lane-name';
import { replyLine } from './reply-line';
import type { CommitCardNode } from './trajectory-layout';

/** One step, Git Graph style: lane dot, label, tool/artifact counts; the question; on the displayed path, the reply. */
export const CommitNode = memo(function CommitNode({ id, data }: NodeProps<CommitCardNode>) {
  const question = data.user_message?.trim() || '(no message)';
  const reply = replyLine(data.reply_preview, data.reply_status, data.applied_from !== null);
  return (
    <>
      {data.laneName !== null && (
        <LaneName
          threadId={data.thread_id}
          name={data.laneName}
          isStarred={data.isStarred}
          isDisplayed={data.isDisplayed}
        />
      )}
      {/* The card is named by its content: the visible text plus words only a screen reader hears,
          so the name always contains what is on screen (WCAG 2.5.3, label in name). */}
      <div
        id={stepDomId(id)}
        role="button"
        data-testid="trajectory-node"
        data-node-id={id}
        data-label={data.label}
        data-on-path={data.isDisplayed}
        data-current={data.isCurrent}
        data-focused={data.isFocused}
        data-selected={data.isSelected}
        title={question}
        className={cn(cardClassName(data), data.isDeletedPath && 'opacity-60')}
      >
        <CardHandles />
        <div className="flex h-5 shrink-0 items-center gap-1.5">
          <LaneDot isDisplayed={data.isDisplayed} />
          <span
            className={cn(
              'font-mono text-xs font-semibold',
              data.isDisplayed ? 'text-brand' : 'text-muted-foreground',
            )}
          >
            <span className="sr-only">Step </span>
            {data.label}
          </span>
          <span className="sr-only">{stepContext(data)}</span>
          {data.isDeletedPath && (
            <span className="truncate text-[10px] italic">
              <span className="sr-only">, </span>deleted path
            </span>
          )}
          <StepCounts toolCount={data.tool_count} artifactCount={data.artifact_count} />
          <ChangeBadge summary={data.change_summary} discarded={data.discarded_count} />
        </div>
        <p className={cn('truncate', data.isDisplayed && 'font-medium')}>
          <span className="sr-only">question: </span>
          {question}
        </p>
        {data.isDisplayed && (
          <p className="truncate text-muted-foreground">
            <span aria-hidden className="mr-1 text-brand/70">
              ↳
            </span>
            {reply.text !== null && (
              <>
                <span className="sr-only">reply: </span>
                {reply.text}
              </>
            )}
            {reply.note !== null && (
              <span data-testid="reply-note" className="italic">
                {reply.text === null ? reply.note : ` · ${reply.note}`}
              </span>
            )}
          </p>
        )}
        {data.isCurrent && <HereBadge />}
      </div>
    </>
  );
});

function StepCounts({ toolCount, artifactCount }: { toolCount: number; artifactCount: number }) {
  if (toolCount === 0 && artifactCount === 0) return null;
  return (
    <span className="ml-auto flex shrink-0 items-center gap-1.5 text-[10px] tabular-nums text-muted-foreground">
      {toolCount > 0 && (
        <span
          className="flex items-center gap-0.5"
          title={`${toolCount} tool call${toolCount === 1 ? '' : 's'}`}
        >
          <Wrench aria-hidden className="size-2.5" />
          <span className="sr-only">, </span>
          {toolCount}
          <span className="sr-only">{toolCount === 1 ? ' tool call' : ' tool calls'}</span>
        </span>
      )}
      {artifactCount > 0 && (
        <span
          className="flex items-center gap-0.5"
          title={`${artifactCount} artifact${artifactCount === 1 ? '' : 's'}`}
        >
          <FileText aria-hidden className="size-2.5" />
          <span className="sr-only">, </span>
          {artifactCount}
          <span className="sr-only">{artifactCount === 1 ? ' artifact' : ' artifacts'}</span>
        </span>
      )}
    </span>
  );
}

/** `+120 −8`: the words the step added and removed; a struck-through count when it discarded items. */
function ChangeBadge({ summary, discarded }: { summary: CommitCardNode['data']['change_summary']; discarded: number }) {
  if (summary === null && discarded === 0) return null;
  return (
    <span data-testid="step-change-badge" className="flex shrink-0 items-center gap-1 font-mono text-[10px] tabular-nums">
      {summary !== null && (summary.words_added > 0 || summary.words_removed > 0) && (
        <span title={`${summary.words_added} words added, ${summary.words_removed} removed`}>
          <span className="sr-only">, </span>
          <span className="text-emerald-700">+{summary.words_added}</span>{' '}
          <span className="text-rose-700">−{summary.words_removed}</span>
          <span className="sr-only"> words</span>
        </span>
      )}
      {discarded > 0 && (
        <span data-testid="step-discard-marker" className="text-muted-foreground line-through" title={`${discarded} discarded here`}>
          <span className="sr-only">, </span>×{discarded}
          <span className="sr-only"> discarded</span>
        </span>
      )}
    </span>
  );
}

/** What a screen reader hears after the step's label: where the step stands. */
function stepContext(data: CommitCardNode['data']): string {
  return `${data.isCurrent ? ', you are here' : ''}, ${data.isDisplayed ? 'on the displayed path' : 'on another path'}`;
}
