'use client';
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { MAX_PANEL_HEIGHT, MIN_PANEL_HEIGHT } from './use-panel-height';

const KEY_STEP = 24;

/** The drag handle under the trajectory: drag (or ↑/↓) to change the panel's height. */
export function PanelSplitter({
  height,
  controls,
  onHeightChange,
}: {
  height: number;
  /** The id of the resized region. */
  controls: string;
  onHeightChange: (height: number) => void;
}) {
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: height };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (start) onHeightChange(start.startHeight + event.clientY - start.startY);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    onHeightChange(height + (event.key === 'ArrowDown' ? KEY_STEP : -KEY_STEP));
  };
  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Trajectory height"
      aria-controls={controls}
      aria-valuenow={height}
      aria-valuemin={MIN_PANEL_HEIGHT}
      aria-valuemax={MAX_PANEL_HEIGHT}
      tabIndex={0}
      data-testid="trajectory-splitter"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      className="group flex h-2 shrink-0 cursor-row-resize touch-none items-center justify-center border-t hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
    >
      <span aria-hidden className="h-1 w-10 rounded-full bg-border group-hover:bg-muted-foreground/50" />
    </div>
  );
}
