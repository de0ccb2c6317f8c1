// The URL names what the studio displays (LESSONS: "a link names the thread it
// shows"): `/` (nothing selected), `/c/{thread_id}`, or `/c/{thread_id}?step=k`
// when a past step is previewed, or `/c/{thread_id}?replay=n` while the path's change n is replayed.

export interface DisplayedView {
  threadId: string | null;
  /** A previewed past step of the thread; null shows its live tip. */
  step: number | null;
  /** The path's change (path-wide `seq`) being replayed; absent or null: no replay. */
  replay?: number | null;
}

export const EMPTY_VIEW: DisplayedView = { threadId: null, step: null };

/**
 * `root` is where a narrowed studio lives (a study participant's, a researcher's read-only look at a
 * participant's family): its thread URLs are `{root}/c/{thread_id}`, so a reload lands on the same
 * page and never on the full studio.
 */
export function viewPath(view: DisplayedView, root = ''): string {
  if (view.threadId === null) return root === '' ? '/' : root;
  const base = `${root}/c/${encodeURIComponent(view.threadId)}`;
  if (view.step !== null) return `${base}?step=${view.step}`;
  return view.replay ? `${base}?replay=${view.replay}` : base;
}

export function parseViewPath(pathname: string, search: string, root = ''): DisplayedView {
  if (!pathname.startsWith(root)) return EMPTY_VIEW;
  const match = /^\/c\/([^/]+)\/?$/.exec(pathname.slice(root.length));
  if (!match?.[1]) return EMPTY_VIEW;
  const query = new URLSearchParams(search);
  const step = query.get('step');
  const replay = parseReplayParam(query.get('replay'));
  return {
    threadId: decodeURIComponent(match[1]),
    step: parseStepParam(step),
    ...(replay === null ? {} : { replay }),
  };
}

/** `?step=k`: a previewed step of the path (the page's server render and the address bar alike). */
export function parseStepParam(value: string | null | undefined): number | null {
  return value != null && /^\d+$/.test(value) ? Number(value) : null;
}

/** `?replay=n`: a change of the path, from 1. */
export function parseReplayParam(value: string | null | undefined): number | null {
  return value != null && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

export function sameView(a: DisplayedView, b: DisplayedView): boolean {
  return a.threadId === b.threadId && a.step === b.step && (a.replay ?? null) === (b.replay ?? null);
}
