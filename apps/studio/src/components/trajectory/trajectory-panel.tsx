'use client';
import type { FamilyGraph, GraphNode } from '@trellis/domain';
import { GitBranch, TriangleAlert } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { TrajectoryCanvas } from './trajectory-canvas';
import { PANEL_HEIGHTS, TrajectoryHeader, type PanelSize } from './trajectory-header';
import { summarizeTrajectory } from './trajectory-layout';

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
  collapsed: boolean;
  onToggleCollapsed: () => void;
}

const MESSAGE_HEIGHT = 96;

/**
 * The collapsible "Trajectory" panel above the chat (seed 003 "Frontend"): the whole family of
 * branches as compact commit cards, the displayed path in the brand colour, a detail card per step.
 */
export function TrajectoryPanel(props: TrajectoryPanelProps) {
  const { graph, isLoading, error, collapsed } = props;
  const bodyId = useId();
  const [size, setSize] = useState<PanelSize>('M');
  const summary = useMemo(() => (graph === undefined ? null : summarizeTrajectory(graph)), [graph]);
  const showsMessage = graph !== undefined ? graph.nodes.length === 0 : error != null && !isLoading;

  return (
    <section
      data-testid="trajectory-panel"
      data-collapsed={collapsed}
      aria-label="Trajectory"
      className="flex shrink-0 flex-col border-b bg-background"
    >
      <TrajectoryHeader
        bodyId={bodyId}
        collapsed={collapsed}
        onToggleCollapsed={props.onToggleCollapsed}
        summary={summary !== null && summary.steps > 0 ? summary.text : null}
        isRefreshing={isLoading && graph !== undefined}
        hasRefreshError={error != null && graph !== undefined}
        isTruncated={graph?.truncated ?? false}
        size={size}
        onSizeChange={setSize}
      />
      {!collapsed && (
        <div
          id={bodyId}
          className="relative border-t"
          // A message needs no tall canvas: empty and error states stay compact above the chat.
          style={{ height: showsMessage ? MESSAGE_HEIGHT : PANEL_HEIGHTS[size] }}
        >
          {graph !== undefined && graph.nodes.length > 0 ? (
            <TrajectoryCanvas
              key={graph.root_thread_id}
              graph={graph}
              displayedThreadId={props.displayedThreadId}
              currentNodeId={props.currentNodeId}
              onSelectStep={props.onSelectStep}
              onContinueFrom={props.onContinueFrom}
              onOpenThread={props.onOpenThread}
              summary={summary?.text ?? ''}
            />
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
