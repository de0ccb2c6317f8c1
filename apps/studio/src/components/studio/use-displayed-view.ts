'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseViewPath, sameView, viewPath, type DisplayedView } from '@/lib/view-url';

export interface ViewNavigation {
  view: DisplayedView;
  /** Shows another thread (or step) and records it in the URL without a server round trip. */
  navigate: (next: DisplayedView, options?: { replace?: boolean }) => void;
  /**
   * Lets the page hold a back/forward step (an edited preview asks first): the guard returns true
   * to stay, and the URL is put back; it navigates itself once the user agrees.
   */
  setPopGuard: (guard: PopGuard | null) => void;
}

export type PopGuard = (next: DisplayedView) => boolean;

/**
 * The displayed view is client state mirrored into the URL with the History
 * API (Next's router integrates pushState), so switching conversations keeps
 * the page, its caches and any running stream; back/forward and reloads of
 * `/c/{id}` land on the same view.
 */
export function useDisplayedView(initial: DisplayedView, root = ''): ViewNavigation {
  const [view, setView] = useState<DisplayedView>(initial);
  const shown = useRef(view);
  useEffect(() => {
    shown.current = view;
  });
  const popGuard = useRef<PopGuard | null>(null);

  useEffect(() => {
    const onPopState = () => {
      const next = parseViewPath(window.location.pathname, window.location.search, root);
      if (!sameView(next, shown.current) && popGuard.current?.(next)) {
        window.history.pushState(null, '', viewPath(shown.current, root));
        return;
      }
      setView(next);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [root]);

  const setPopGuard = useCallback((guard: PopGuard | null) => {
    popGuard.current = guard;
  }, []);

  const navigate = useCallback((next: DisplayedView, options: { replace?: boolean } = {}) => {
    setView((current) => (sameView(current, next) ? current : next));
    const url = viewPath(next, root);
    if (url === `${window.location.pathname}${window.location.search}`) return;
    if (options.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
  }, [root]);

  return { view, navigate, setPopGuard };
}
