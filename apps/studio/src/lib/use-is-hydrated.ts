'use client';
import { useSyncExternalStore } from 'react';

const noChange = () => () => {};

/**
 * False while the server renders and while the browser hydrates that render, true after: for what
 * only the browser can know (the viewer's time zone, the time now), which a server-rendered
 * transcript must leave out until then so the hydrated text equals the server's.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}
