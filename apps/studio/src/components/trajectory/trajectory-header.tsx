'use client';
import { ChevronRight, GitBranch, Maximize2, Minimize2, TriangleAlert } from 'lucide-react';
import { cn } from '@/lib/cn';

export type PanelSize = 'S' | 'M' | 'L';

/** Canvas height for each size, in CSS pixels. */
export const PANEL_HEIGHTS: Readonly<Record<PanelSize, number>> = { S: 180, M: 260, L: 420 };
const SIZE_NAMES: Readonly<Record<PanelSize, string>> = { S: 'small', M: 'medium', L: 'large' };

export interface TrajectoryHeaderProps {
  bodyId: string;
  collapsed: boolean;
  onToggleCollapsed: () => void;
  summary: string | null;
  isRefreshing: boolean;
  hasRefreshError: boolean;
  isTruncated: boolean;
  /** The size button matching the panel's height; null for a dragged height or the full-screen map. */
  size: PanelSize | null;
  onSizeChange: (size: PanelSize) => void;
  isFullScreen: boolean;
  onToggleFullScreen: () => void;
}

export function TrajectoryHeader(props: TrajectoryHeaderProps) {
  const { collapsed, summary } = props;
  return (
    <div className="flex h-9 shrink-0 items-center gap-2 px-2">
      <button
        type="button"
        data-testid="trajectory-toggle"
        aria-expanded={!collapsed}
        aria-controls={props.bodyId}
        onClick={props.onToggleCollapsed}
        className="flex min-w-0 items-center gap-1.5 rounded-md px-1.5 py-1 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronRight
          aria-hidden
          className={cn(
            'size-4 shrink-0 text-muted-foreground transition-transform',
            !collapsed && 'rotate-90',
          )}
        />
        <GitBranch aria-hidden className="size-4 shrink-0 text-brand" />
        Trajectory
      </button>
      {summary !== null && (
        <span data-testid="trajectory-summary" className="truncate text-xs text-muted-foreground">
          {summary}
          {props.isTruncated && ' · newest only'}
        </span>
      )}
      {props.isRefreshing && (
        <span role="status" aria-label="Refreshing" className="size-1.5 shrink-0 animate-pulse rounded-full bg-brand" />
      )}
      {props.hasRefreshError && (
        <span
          className="flex shrink-0 items-center gap-1 text-xs text-destructive"
          title="The trajectory could not be refreshed"
        >
          <TriangleAlert aria-hidden className="size-3.5" />
          stale
        </span>
      )}
      {!collapsed && (
        <div
          role="group"
          aria-label="Panel height"
          className="ml-auto flex shrink-0 overflow-hidden rounded-md border text-[11px]"
        >
          {(Object.keys(PANEL_HEIGHTS) as PanelSize[]).map((size) => (
            <button
              key={size}
              type="button"
              aria-pressed={props.size === size}
              aria-label={`${SIZE_NAMES[size]} panel`}
              data-testid={`trajectory-size-${size}`}
              onClick={() => props.onSizeChange(size)}
              className={cn(
                'w-6 py-0.5 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
                props.size === size
                  ? 'bg-secondary text-foreground'
                  : 'text-muted-foreground hover:bg-accent',
              )}
            >
              {size}
            </button>
          ))}
        </div>
      )}
      {!collapsed && (
        <button
          type="button"
          data-testid="trajectory-fullscreen"
          aria-pressed={props.isFullScreen}
          aria-label={props.isFullScreen ? 'Leave the full-screen map (F)' : 'Full-screen map (F)'}
          title={props.isFullScreen ? 'Leave the full-screen map (F or Escape)' : 'Full-screen map (F)'}
          onClick={props.onToggleFullScreen}
          className="flex size-6 shrink-0 items-center justify-center rounded-md border text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {props.isFullScreen ? <Minimize2 aria-hidden className="size-3.5" /> : <Maximize2 aria-hidden className="size-3.5" />}
        </button>
      )}
    </div>
  );
}
