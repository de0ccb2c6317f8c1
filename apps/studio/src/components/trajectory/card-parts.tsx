import { Handle, Position } from '@xyflow/react';
import type { CSSProperties } from 'react';
import { cn } from '@/lib/cn';
import { CARD_WIDTH, HANDLE_Y } from './trajectory-layout';

// Invisible 1 × 1 px handles at exactly the spots trajectory-layout declares, so a card's measured
// handles and its declared ones agree (edges never jump when a card scrolls into view).
const HANDLE_BASE: CSSProperties = {
  top: HANDLE_Y - 0.5,
  width: 1,
  height: 1,
  minWidth: 0,
  minHeight: 0,
  border: 0,
  opacity: 0,
  transform: 'none',
};
const TARGET_HANDLE_STYLE: CSSProperties = { ...HANDLE_BASE, left: 0 };
const SOURCE_HANDLE_STYLE: CSSProperties = { ...HANDLE_BASE, left: CARD_WIDTH - 1, right: 'auto' };

export function CardHandles() {
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={false} style={TARGET_HANDLE_STYLE} />
      <Handle type="source" position={Position.Right} isConnectable={false} style={SOURCE_HANDLE_STYLE} />
    </>
  );
}

/** The DOM id of a card, for the canvas's aria-activedescendant. */
export function stepDomId(nodeId: string): string {
  return `trajectory-step-${nodeId}`;
}

export function LaneDot({ isDisplayed, isHollow = false }: { isDisplayed: boolean; isHollow?: boolean }) {
  return (
    <span
      aria-hidden
      className={cn(
        'inline-block size-2.5 shrink-0 rounded-full',
        isHollow
          ? cn('border-2 border-dashed bg-card', isDisplayed ? 'border-brand' : 'border-muted-foreground/50')
          : isDisplayed
            ? 'bg-brand'
            : 'bg-muted-foreground/45',
      )}
    />
  );
}

/**
 * "You are here", on the card's bottom edge: it overlaps only the card's bottom padding and the gap
 * below (never the lane name above the card, nor any line of text; the card heights keep ≥ 7 px free
 * at the bottom, and the next lane's name starts 6 px below the card).
 */
export function HereBadge() {
  return (
    <span
      aria-hidden
      data-testid="here-badge"
      className="pointer-events-none absolute -bottom-[5px] left-2 z-10 h-3 rounded-full bg-brand px-1.5 text-[8px] font-semibold uppercase leading-3 tracking-wide text-white shadow-sm"
    >
      You are here
    </span>
  );
}

/**
 * The replayed change's step, on the card's bottom edge at the right: its own mark, so "you are here"
 * stays on the live step while a replay looks at another.
 */
export function ReplayBadge() {
  return (
    <span
      aria-hidden
      data-testid="replay-badge"
      className="pointer-events-none absolute -bottom-[5px] right-2 z-10 h-3 rounded-full bg-amber-700 px-1.5 text-[8px] font-semibold uppercase leading-3 tracking-wide text-white shadow-sm"
    >
      Replay
    </span>
  );
}

/** A path's colour on the overview, by lane (the displayed path keeps the brand colour). */
export function laneColour(lane: number): string {
  return `hsl(${(lane * 137.5 + 200) % 360} 45% 46%)`;
}

/** Classes shared by commit and stub cards: the displayed path in brand, the rest dimmed. */
export function cardClassName(data: {
  isDisplayed: boolean;
  isCurrent: boolean;
  isSelected: boolean;
}): string {
  return cn(
    'flex h-full w-full cursor-pointer flex-col gap-0.5 overflow-hidden rounded-md border px-2 py-1.5 text-[11px] leading-4 transition-colors',
    // Keyboard focus shows only while the canvas itself has keyboard focus.
    'outline-offset-2 outline-ring group-focus-visible/trajectory:data-[focused=true]:outline-2',
    data.isDisplayed
      ? 'border-brand/45 bg-card text-card-foreground shadow-sm hover:border-brand'
      : 'border-border bg-muted/70 text-muted-foreground hover:border-muted-foreground/50 hover:text-foreground',
    data.isSelected &&
      (data.isDisplayed
        ? 'border-brand bg-brand-soft'
        : 'border-muted-foreground/60 bg-accent text-foreground'),
    data.isCurrent && 'ring-2 ring-brand ring-offset-2 ring-offset-background',
  );
}
