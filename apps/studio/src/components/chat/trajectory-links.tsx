'use client';
import type { PathGuideStep } from '@trellis/domain';
import { createContext, useContext } from 'react';

/**
 * What the chat knows of the trajectory (docs/branching.md, "The family graph"): each step of
 * the displayed path with its label and the paths that fork there, and the two ways to leave the
 * displayed view from a message — open another path, or restore an earlier step.
 */
export interface TrajectoryLinks {
  /** The displayed path's steps by turn index (empty until the family graph arrives). */
  steps: ReadonlyMap<number, PathGuideStep>;
  openPath: (threadId: string) => void;
  restoreStep: (turn: number) => void;
  /** Restores any step of the family by node id ("{thread_id}:{turn}"), e.g. an apply's source. */
  openStep?: (nodeId: string) => void;
  /** The step of the replayed change, marked on its message; null or absent without a replay. */
  replayTurn?: number | null;
}

const TrajectoryLinksContext = createContext<TrajectoryLinks | null>(null);

export const TrajectoryLinksProvider = TrajectoryLinksContext.Provider;

/** Null outside the studio (the chat then shows no labels, chips or checkpoints). */
export function useTrajectoryLinks(): TrajectoryLinks | null {
  return useContext(TrajectoryLinksContext);
}
