'use client';
import { useCallback, useEffect, useState } from 'react';
import { PHONE_STRIP_HEIGHT, startsAsStrip } from './overview';
import { PANEL_HEIGHTS, type PanelSize } from './trajectory-header';

const STORAGE_KEY = 'trellis.trajectory.height';
export const MIN_PANEL_HEIGHT = 140;
export const MAX_PANEL_HEIGHT = 900;

export function clampPanelHeight(height: number, viewportHeight: number): number {
  const max = Math.max(MIN_PANEL_HEIGHT, Math.min(MAX_PANEL_HEIGHT, viewportHeight - 260));
  return Math.round(Math.min(max, Math.max(MIN_PANEL_HEIGHT, height)));
}

/** The size button a height matches, if any. */
export function sizeOfHeight(height: number): PanelSize | null {
  return (Object.keys(PANEL_HEIGHTS) as PanelSize[]).find((size) => PANEL_HEIGHTS[size] === height) ?? null;
}

/**
 * The trajectory canvas's height: a size button or the drag handle sets it, and it is remembered in
 * this browser (read after the first render, so the server's HTML and the first client render agree).
 * On a phone with no remembered height the map starts as a compact strip above the chat; a size
 * button (or the handle) expands it.
 */
export function usePanelHeight(): { height: number; setHeight: (height: number) => void; isStrip: boolean } {
  const [height, setStored] = useState<number>(PANEL_HEIGHTS.M);
  const [isStrip, setStrip] = useState(false);
  useEffect(() => {
    const saved = Number(window.localStorage.getItem(STORAGE_KEY));
    if (Number.isFinite(saved) && saved > 0) setStored(clampPanelHeight(saved, window.innerHeight));
    else if (startsAsStrip(window.innerWidth)) {
      setStored(PHONE_STRIP_HEIGHT);
      setStrip(true);
    }
  }, []);
  const setHeight = useCallback((next: number) => {
    const clamped = clampPanelHeight(next, window.innerHeight);
    setStored(clamped);
    setStrip(false);
    window.localStorage.setItem(STORAGE_KEY, String(clamped));
  }, []);
  return { height, setHeight, isStrip };
}
