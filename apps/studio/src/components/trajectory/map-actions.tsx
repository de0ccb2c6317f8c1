'use client';
import { createContext, useContext } from 'react';

/**
 * What a card can ask of the map it sits on: open or close a stack of regenerated replies, fold or
 * unfold a fork, and whether the map is in its overview (below the readable zoom, cards drawn compact).
 * Absent (null) where a card is drawn without a map (the bench harness draws the panel as a whole).
 */
export interface MapActions {
  readonly isOverview: boolean;
  /** The step of the replayed change, marked on its card apart from "you are here"; null without a replay. */
  readonly replayNodeId: string | null;
  /** The step whose reply is streaming now (its card reads "replying…"); null while none is. */
  readonly replyingNodeId: string | null;
  /** Why a path's label skips ordinals ("4.2: …; 4.1 was continued"), by thread id: the label's hover. */
  readonly gapNotes: ReadonlyMap<string, string>;
  readonly toggleStack: (nodeId: string) => void;
  readonly toggleFork: (nodeId: string) => void;
}

const MapActionsContext = createContext<MapActions | null>(null);
export const MapActionsProvider = MapActionsContext.Provider;

export function useMapActions(): MapActions | null {
  return useContext(MapActionsContext);
}
