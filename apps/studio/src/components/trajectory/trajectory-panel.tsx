'use client';
import type { FamilyGraph, GraphNode } from '@trellis/domain';
import type { ReactNode } from 'react';
import { ChevronDown, GitBranch, TriangleAlert } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { MapPresenceProvider } from '@/components/presence/map-presence';
import { TrajectoryCanvas } from './trajectory-canvas';
import { PanelSplitter } from './panel-splitter';
import { PANEL_HEIGHTS, TrajectoryHeader } from './trajectory-header';
import { summarizeTrajectory } from './trajectory-layout';
import { sizeOfHeight, usePanelHeight } from './use-panel-height';

export interface TrajectoryPanelProps {
  /** The family graph (`GET /api/conversations/{id}/graph`); undefined until the first response. */
  graph: FamilyGraph | undefined;
  isLoading: boolean;
  /** The last fetch failed; with a graph still in hand it is shown as stale. */
  error?: unknown;
  /** The thread the studio shows: its path is drawn in the brand colour. */
  displayedThreadId: string;
  /** "You are here": the previewed step, or the tip of the displayed path (a stub id for a fresh path). */
  currentNodeId: string | null;
  /** A card on the displayed path was clicked (or chosen with Enter): scroll the chat to it. */
  onSelectStep: (nodeId: string, node: GraphNode) => void;
  /** "Continue from here" (detail card, or a double-click on a card): restore the studio to that step. */
  onContinueFrom: (node: GraphNode) => void;
  /** "Open this path" on a step of another path (or a double-click on a new path's head). */
  onOpenThread: (threadId: string) => void;
  /**
   * Shift-click a second card, or "Compare with…" then a card: compare the two steps (node ids);
   * "Bring into the current path…" compares "you are here" (a) with a step, `into` a.
   */
  onCompare?: (a: string, b: string, into?: 'a') => void;
  /** "What changed" and "Discarded here" in the step detail (the panel itself fetches nothing). */
  renderStepChanges?: (step: GraphNode) => ReactNode;
  collapsed: boolean;
  onToggleCollapsed: () => void;
  /** The step whose message the chat shows: the map follows it (unless the person just moved the map). */
  followTurn?: number | null;
  /** The replayed change's step (its own mark on the map); null or absent without a replay. */
  replayNodeId?: string | null;
  /** The step whose reply is streaming now: its card reads "replying…". */
  replyingNodeId?: string | null;
}

const MESSAGE_HEIGHT = 96;

/**
 * The collapsible "Trajectory" panel above the chat (docs/branching.md, "The family graph"): the whole family of
 * branches as compact commit cards, the displayed path in the brand colour, a detail card per step.
 */
export function TrajectoryPanel(props: TrajectoryPanelProps) {
  const { graph, isLoading, error, collapsed } = props;
  const bodyId = useId();
  const { height, setHeight, isStrip } = usePanelHeight();
  const [isFullScreen, setFullScreen] = useState(false);
  const summary = useMemo(() => (graph === undefined ? null : summarizeTrajectory(graph)), [graph]);
  const showsMessage = graph !== undefined ? graph.nodes.length === 0 : error != null && !isLoading;

  // F toggles the full-screen map, Escape leaves it (once nothing inside wanted the key).
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, [contenteditable="true"]')) return;
    if ((event.key === 'f' || event.key === 'F') && !collapsed) {
      event.preventDefault();
      setFullScreen((full) => !full);
    } else if (event.key === 'Escape' && isFullScreen) {
      event.preventDefault();
      setFullScreen(false);
    }
  };
  const isFull = isFullScreen && !collapsed;

  return (
    <section
      data-testid="trajectory-panel"
      data-collapsed={collapsed}
      data-fullscreen={isFull}
      data-strip={isStrip && !isFull}
      aria-label="Trajectory"
      onKeyDown={onKeyDown}
      className={
        isFull
          ? 'fixed inset-0 z-40 flex flex-col bg-background'
          : 'relative flex shrink-0 flex-col border-b bg-background'
      }
    >
      <TrajectoryHeader
        bodyId={bodyId}
        collapsed={collapsed}
        onToggleCollapsed={props.onToggleCollapsed}
        summary={summary !== null && summary.steps > 0 ? summary.text : null}
        isRefreshing={isLoading && graph !== undefined}
        hasRefreshError={error != null && graph !== undefined}
        isTruncated={graph?.truncated ?? false}
        size={isFull ? null : sizeOfHeight(height)}
        onSizeChange={(size) => {
          setFullScreen(false);
          setHeight(PANEL_HEIGHTS[size]);
        }}
        isFullScreen={isFull}
        onToggleFullScreen={() => setFullScreen((full) => !full)}
      />
      {!collapsed && (
        <div
          id={bodyId}
          className={isFull ? 'relative min-h-0 flex-1 border-t' : 'relative border-t'}
          // A message needs no tall canvas: empty and error states stay compact above the chat.
          style={isFull ? undefined : { height: showsMessage ? MESSAGE_HEIGHT : height }}
        >
          {graph !== undefined && graph.nodes.length > 0 ? (
            <MapPresenceProvider graph={graph}>
              <TrajectoryCanvas
                key={graph.root_thread_id}
                graph={graph}
                displayedThreadId={props.displayedThreadId}
                currentNodeId={props.currentNodeId}
                onSelectStep={props.onSelectStep}
                onContinueFrom={props.onContinueFrom}
                onOpenThread={props.onOpenThread}
                onCompare={props.onCompare}
                renderStepChanges={props.renderStepChanges}
                summary={summary?.text ?? ''}
                isFullScreen={isFull}
                followTurn={props.followTurn ?? null}
                replayNodeId={props.replayNodeId ?? null}
                replyingNodeId={props.replyingNodeId ?? null}
              />
            </MapPresenceProvider>
          ) : graph !== undefined ? (
            <PanelMessage
              testId="trajectory-empty"
              icon={<GitBranch aria-hidden className="size-5 text-brand/70" />}
            >
              Send a message to start the trajectory
            </PanelMessage>
          ) : error != null && !isLoading ? (
            <PanelMessage
              testId="trajectory-error"
              icon={<TriangleAlert aria-hidden className="size-5 text-destructive" />}
            >
              The trajectory could not be loaded.
            </PanelMessage>
          ) : (
            <TrajectorySkeleton />
          )}
        </div>
      )}
      {!collapsed && !isFull && !showsMessage && !isStrip && (
        <PanelSplitter height={height} controls={bodyId} onHeightChange={setHeight} />
      )}
      {!collapsed && !isFull && !showsMessage && isStrip && (
        <button
          type="button"
          data-testid="trajectory-expand"
          aria-controls={bodyId}
          onClick={() => setHeight(PANEL_HEIGHTS.M)}
          className="flex h-7 w-full items-center justify-center gap-1 border-t text-xs text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
        >
          <ChevronDown aria-hidden className="size-3.5" />
          Show more of the map
        </button>
      )}
    </section>
  );
}

function PanelMessage({
  testId,
  icon,
  children,
}: {
  testId: string;
  icon: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div
      data-testid={testId}
      role="status"
      className="flex h-full flex-col items-center justify-center gap-2 text-sm text-muted-foreground"
    >
      {icon}
      {children}
    </div>
  );
}

/** Grey cards on two lanes standing in for the graph while it loads. */
function TrajectorySkeleton() {
  return (
    <div
      data-testid="trajectory-loading"
      role="status"
      aria-busy="true"
      aria-label="Loading the trajectory"
      className="flex h-full flex-col gap-5 overflow-hidden p-5"
    >
      {[4, 2].map((count, lane) => (
        <div key={lane} className="flex gap-10" style={{ paddingLeft: lane * 228 }}>
          {Array.from({ length: count }, (_, i) => (
            <Skeleton key={i} className="h-14 w-44 shrink-0" />
          ))}
        </div>
      ))}
    </div>
  );
}
