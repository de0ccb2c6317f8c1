// The URL names what the studio displays (LESSONS: "a link names the thread it
// shows"): `/` (nothing selected), `/c/{thread_id}`, or `/c/{thread_id}?step=k`
// when a past step is previewed.

export interface DisplayedView {
  threadId: string | null;
  /** A previewed past step of the thread; null shows its live tip. */
  step: number | null;
}

export const EMPTY_VIEW: DisplayedView = { threadId: null, step: null };

export function viewPath(view: DisplayedView): string {
  if (view.threadId === null) return '/';
  const base = `/c/${encodeURIComponent(view.threadId)}`;
  return view.step === null ? base : `${base}?step=${view.step}`;
}

export function parseViewPath(pathname: string, search: string): DisplayedView {
  const match = /^\/c\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return EMPTY_VIEW;
  const step = new URLSearchParams(search).get('step');
  return {
    threadId: decodeURIComponent(match[1]),
    step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
  };
}

export function sameView(a: DisplayedView, b: DisplayedView): boolean {
  return a.threadId === b.threadId && a.step === b.step;
}
