'use client';
import type { NodeProps } from '@xyflow/react';
import { FileText, Layers, Wrench } from 'lucide-react';
import { memo } from 'react';
import { CardPresence } from '@/components/presence/presence-avatars';
import { cn } from '@/lib/cn';
import { cardClassName, CardHandles, HereBadge, LaneDot, ReplayBadge, laneColour, stepDomId } from './card-parts';
import { LaneName } from './lane-name';
import { useMapActions, type MapActions } from './map-actions';
import { replyLine } from './reply-line';
import { LANE_GAP, STEP_GAP, type CommitCardNode } from './trajectory-layout';

/**
 * One step, Git Graph style: lane dot, label, tool/artifact counts; the question; on the displayed
 * path, the reply. Regenerated replies stacked on it show as cards behind it with a count; a step
 * where paths branch has a fold toggle beside it. On the overview (below the readable zoom) the card
 * is a compact node: its label on its path's colour.
 */
export const CommitNode = memo(function CommitNode({ id, data, positionAbsoluteX }: NodeProps<CommitCardNode>) {
  const map = useMapActions();
  const question = data.user_message?.trim() || '(no message)';
  const isReplayed = map !== null && map.replayNodeId === id;
  if (map?.isOverview) return <CompactNode id={id} data={data} question={question} x={positionAbsoluteX} isReplayed={isReplayed} />;
  const reply = replyLine(data.reply_preview, data.reply_status, data.applied_from !== null, map !== null && map.replyingNodeId === id);
  const isStacked = data.stackedReplies > 0 && !data.isStackExpanded;
  const gapNote = map?.gapNotes.get(data.thread_id);
  return (
    <>
      {isStacked && (
        <>
          <span aria-hidden className="absolute inset-0 -z-10 translate-x-[6px] translate-y-[6px] rounded-md border border-muted-foreground/40 bg-muted" />
          <span aria-hidden className="absolute inset-0 -z-10 translate-x-[3px] translate-y-[3px] rounded-md border border-muted-foreground/50 bg-card" />
        </>
      )}
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
        data-replayed={isReplayed || undefined}
        data-focused={data.isFocused}
        data-selected={data.isSelected}
        data-stacked={isStacked ? data.stackedReplies : undefined}
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
            data-testid={gapNote === undefined ? undefined : 'label-gap-note'}
            title={gapNote}
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
          <CardPresence nodeId={id} />
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
        {isReplayed && <ReplayBadge />}
        {isReplayed && <span className="sr-only">, the replayed change is here</span>}
      </div>
      {map !== null && data.stackedReplies > 0 && <StackToggle id={id} data={data} map={map} />}
      {map !== null && (data.branchCount > 0 || data.collapsedBranches > 0) && <ForkToggle id={id} data={data} map={map} />}
    </>
  );
});

/** The tallest an overview lane name gets, in flow px: below LANE_GAP, so names of adjacent lanes keep apart. */
const LANE_NAME_MAX_PX = LANE_GAP - 14;

/** Screen px kept between a lane's name and the map's left edge. */
const LANE_NAME_EDGE_PX = 4;

/**
 * The widest a lane's name may be, in flow px: never wider than the empty lane to its left, and never
 * past the screen's left edge (`--flow-x`, the pan, and `--flow-zoom` come from the canvas): a name
 * whose room runs off the screen ends there with an ellipsis, or is not drawn at all, instead of
 * being cut by the edge (a phone's full-screen map of a family wider than the screen).
 */
function laneNameMaxWidth(turn: number, x: number): string {
  const room = `calc((${x}px * var(--flow-zoom, 1) + var(--flow-x, 0px) - ${LANE_NAME_EDGE_PX}px) / var(--flow-zoom, 1) - 10px)`;
  return `min(${turn * STEP_GAP - 24}px, ${room})`;
}

/**
 * The overview's node: the step label on the path's colour ("you are here" a ring, a replay's step a
 * dot); the lane's name to the left of its first node.
 */
function CompactNode({
  id,
  data,
  question,
  x,
  isReplayed,
}: {
  id: string;
  data: CommitCardNode['data'];
  question: string;
  x: number;
  isReplayed: boolean;
}) {
  return (
    <>
      {data.laneName !== null && (
        <span
          data-testid="lane-name"
          data-thread-id={data.thread_id}
          data-starred={data.isStarred}
          className={cn(
            'pointer-events-none absolute right-[calc(100%+10px)] top-0 truncate whitespace-nowrap text-right font-medium leading-none',
            data.isDisplayed ? 'text-brand' : 'text-muted-foreground',
          )}
          // Readable at any overview zoom (10 screen px) down to where lanes are closer than that, never
          // wider than the empty lane to its left. Aligned to the lane's top (path and other cards differ
          // in height) and at most LANE_NAME_MAX_PX tall, so two lanes' names never overlap, a phone's
          // full-screen map included.
          style={{ fontSize: `min(calc(10px / var(--flow-zoom, 1)), ${LANE_NAME_MAX_PX}px)`, maxWidth: laneNameMaxWidth(data.turn_index, x) }}
        >
          {data.isStarred && (
            <>
              <span aria-hidden className="mr-[0.25em]">
                ★
              </span>
              <span className="sr-only">Starred: </span>
            </>
          )}
          {data.laneName}
        </span>
      )}
      <div
        id={stepDomId(id)}
        role="button"
        data-testid="trajectory-node"
        data-compact="true"
        data-node-id={id}
        data-label={data.label}
        data-on-path={data.isDisplayed}
        data-current={data.isCurrent}
        data-replayed={isReplayed || undefined}
        data-focused={data.isFocused}
        data-selected={data.isSelected}
        data-stacked={data.stackedReplies > 0 && !data.isStackExpanded ? data.stackedReplies : undefined}
        title={`${data.label}: ${question}`}
        className={cn(
          'relative flex h-full w-full cursor-pointer items-center justify-center overflow-hidden rounded-sm font-mono font-semibold leading-none text-white',
          'outline-offset-2 outline-ring group-focus-visible/trajectory:data-[focused=true]:outline-2',
          data.isDisplayed ? 'bg-brand' : 'opacity-80',
          (data.isCurrent || data.isSelected) && 'ring-2 ring-foreground',
        )}
        style={{
          background: data.isDisplayed ? undefined : laneColour(data.lane),
          // 10 screen px while the node is tall enough, else as tall as the node allows.
          fontSize: `min(calc(10px / var(--flow-zoom, 1)), ${Math.round((data.isDisplayed ? 72 : 52) * 0.8)}px)`,
        }}
      >
        <CardHandles />
        <span className="sr-only">Step </span>
        {data.label}
        {data.stackedReplies > 0 && !data.isStackExpanded && (
          <>
            <sup aria-hidden>+{data.stackedReplies}</sup>
            <span className="sr-only">, {data.stackedReplies} more replies stacked here</span>
          </>
        )}
        {data.isCurrent && <span className="sr-only">, you are here</span>}
        {isReplayed && (
          <>
            <span
              aria-hidden
              data-testid="replay-badge"
              className="pointer-events-none absolute right-[0.3em] top-[0.3em] size-[0.7em] rounded-full bg-amber-400 ring-1 ring-white"
            />
            <span className="sr-only">, the replayed change is here</span>
          </>
        )}
      </div>
    </>
  );
}

/**
 * The stack marker: how many regenerated replies are stacked on this card; a press lays them out as
 * paths of their own (and stacks them again). Outside the card (a button may not sit in a button).
 */
function StackToggle({ id, data, map }: { id: string; data: CommitCardNode['data']; map: MapActions }) {
  const n = data.stackedReplies;
  const replies = `${n} regenerated ${n === 1 ? 'reply' : 'replies'}`;
  return (
    <button
      type="button"
      data-testid="stack-toggle"
      data-count={n}
      aria-expanded={data.isStackExpanded}
      aria-label={data.isStackExpanded ? `Stack the ${replies} of step ${data.label}` : `${replies} stacked on step ${data.label}: show them`}
      title={data.isStackExpanded ? `Stack the ${replies} again` : `${replies} stacked here: show them`}
      className="nodrag nopan absolute -bottom-[6px] right-2 z-10 flex h-3.5 items-center gap-0.5 rounded-full border border-brand/60 bg-brand-soft px-1.5 text-[9px] font-semibold leading-3 text-brand shadow-sm hover:border-brand focus-visible:outline-2 focus-visible:outline-ring"
      onClick={(event) => {
        event.stopPropagation();
        map.toggleStack(id);
      }}
      onDoubleClick={(event) => event.stopPropagation()}
    >
      <Layers aria-hidden className="size-2.5" />
      {data.isStackExpanded ? '−' : `${n} more`}
    </button>
  );
}

/** Folds the paths that branch at this step (their lanes leave the map) or unfolds them; beside the card. */
function ForkToggle({ id, data, map }: { id: string; data: CommitCardNode['data']; map: MapActions }) {
  const folded = data.collapsedBranches;
  const n = folded > 0 ? folded : data.branchCount;
  const paths = `${n} ${n === 1 ? 'path' : 'paths'}`;
  const branch = n === 1 ? 'branches' : 'branch';
  return (
    <button
      type="button"
      data-testid="fork-toggle"
      data-collapsed={folded > 0}
      aria-expanded={folded === 0}
      aria-label={folded > 0 ? `Show the ${paths} that ${branch} at step ${data.label}` : `Fold the ${paths} that ${branch} at step ${data.label}`}
      title={folded > 0 ? `Show the ${paths} folded here` : `Fold the ${paths} that ${branch} here`}
      className="nodrag nopan absolute -right-[22px] top-[10px] z-10 flex h-3.5 min-w-3.5 items-center justify-center rounded-full border bg-card px-0.5 text-[9px] font-semibold leading-3 text-muted-foreground shadow-sm hover:border-brand hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      onClick={(event) => {
        event.stopPropagation();
        map.toggleFork(id);
      }}
      onDoubleClick={(event) => event.stopPropagation()}
    >
      {folded > 0 ? `+${folded}` : '−'}
    </button>
  );
}

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
