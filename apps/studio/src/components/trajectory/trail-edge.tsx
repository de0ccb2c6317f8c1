'use client';
import { BaseEdge, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import { isProvenanceEdge } from '@trellis/domain';
import type { TrailEdge as TrailEdgeType } from './trajectory-layout';

export const ARROW_ON_PATH_ID = 'trajectory-arrow-on-path';
export const ARROW_OFF_PATH_ID = 'trajectory-arrow-off-path';

const ON_PATH_STYLE = { stroke: 'var(--brand)', strokeWidth: 2 };
const OFF_PATH_STYLE = { stroke: 'var(--muted-foreground)', strokeOpacity: 0.45, strokeWidth: 1.5 };
// An apply edge (source step → the step it was applied onto) is provenance, not a path: dashed.
const APPLY_STYLE = { stroke: 'var(--brand)', strokeOpacity: 0.7, strokeWidth: 1.5, strokeDasharray: '5 4' };
// A citation edge (the cited step → the step whose reply read it) is provenance too: dotted.
const CITE_STYLE = { stroke: 'var(--brand)', strokeOpacity: 0.7, strokeWidth: 1.5, strokeDasharray: '1 4', strokeLinecap: 'round' as const };

/**
 * A step-to-step edge: straight along a lane; across lanes a rounded step whose vertical run sits in
 * the gap between two columns, nudged by the source lane so runs from neighbouring lanes do not merge.
 * An `apply` edge is dashed (a node may have it as a second incoming edge).
 */
export const TrailEdge = memo(function TrailEdge(props: EdgeProps<TrailEdgeType>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data } = props;
  const isDisplayed = data?.isDisplayed ?? false;
  const path = data?.isCrossLane
    ? getSmoothStepPath({
        sourceX,
        sourceY,
        targetX,
        targetY,
        sourcePosition,
        targetPosition,
        borderRadius: 8,
        centerX: (sourceX + targetX) / 2 + ((((data.sourceLane % 3) + 3) % 3) - 1) * 5,
      })[0]
    : `M ${sourceX},${sourceY} L ${targetX},${targetY}`;
  return (
    <BaseEdge
      id={id}
      path={path}
      markerEnd={`url(#${isDisplayed || isProvenanceEdge(data?.kind) ? ARROW_ON_PATH_ID : ARROW_OFF_PATH_ID})`}
      style={data?.kind === 'apply' ? APPLY_STYLE : data?.kind === 'cite' ? CITE_STYLE : isDisplayed ? ON_PATH_STYLE : OFF_PATH_STYLE}
      interactionWidth={0}
    />
  );
});

/** The two arrowheads, defined once per panel (brand for the displayed path, grey elsewhere). */
export function TrailArrowDefs() {
  return (
    <svg aria-hidden className="pointer-events-none absolute size-0 overflow-hidden">
      <defs>
        <ArrowMarker id={ARROW_ON_PATH_ID} fill="var(--brand)" opacity={1} />
        <ArrowMarker id={ARROW_OFF_PATH_ID} fill="var(--muted-foreground)" opacity={0.55} />
      </defs>
    </svg>
  );
}

function ArrowMarker({ id, fill, opacity }: { id: string; fill: string; opacity: number }) {
  return (
    <marker
      id={id}
      viewBox="0 0 10 10"
      refX="10"
      refY="5"
      markerWidth="8"
      markerHeight="8"
      markerUnits="userSpaceOnUse"
      orient="auto-start-reverse"
    >
      <path d="M 0 0 L 10 5 L 0 10 z" style={{ fill, fillOpacity: opacity }} />
    </marker>
  );
}
