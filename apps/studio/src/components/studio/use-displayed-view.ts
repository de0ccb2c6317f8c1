'use client';
import { useCallback, useEffect, useState } from 'react';
import { parseViewPath, sameView, viewPath, type DisplayedView } from '@/lib/view-url';

export interface ViewNavigation {
  view: DisplayedView;
  /** Shows another thread (or step) and records it in the URL without a server round trip. */
  navigate: (next: DisplayedView, options?: { replace?: boolean }) => void;
}

/**
 * The displayed view is client state mirrored into the URL with the History
 * API (Next's router integrates pushState), so switching conversations keeps
 * the page, its caches and any running stream; back/forward and reloads of
 * `/c/{id}` land on the same view.
 */
export function useDisplayedView(initial: DisplayedView): ViewNavigation {
  const [view, setView] = useState<DisplayedView>(initial);

  useEffect(() => {
    const onPopState = () => setView(parseViewPath(window.location.pathname, window.location.search));
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  const navigate = useCallback((next: DisplayedView, options: { replace?: boolean } = {}) => {
    setView((current) => (sameView(current, next) ? current : next));
    const url = viewPath(next);
    if (url === `${window.location.pathname}${window.location.search}`) return;
    if (options.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
  }, []);

  return { view, navigate };
}
