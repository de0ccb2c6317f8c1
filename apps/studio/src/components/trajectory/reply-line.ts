import type { GraphReplyStatus } from '@trellis/domain';

/** What a step card says about its reply: the preview text and, when it did not simply finish, why. */
export interface ReplyLine {
  /** The reply's text, trimmed; null when it has none. */
  readonly text: string | null;
  /** "no reply yet", "stopped", "interrupted" or "failed"; null for a reply that finished. */
  readonly note: string | null;
}

const NOTES: Record<Exclude<GraphReplyStatus, 'complete'>, string> = {
  stopped: 'stopped',
  interrupted: 'interrupted',
  failed: 'failed',
};

/**
 * A step with no reply row is still waiting ("no reply yet", or "replying…" while its reply streams); one that ended early says how, even
 * when it streamed some text first — a stopped step never reads as one still waiting.
 */
export function replyLine(preview: string | null, status: GraphReplyStatus | null, isApply = false, isReplying = false): ReplyLine {
  const text = preview?.trim() || null;
  // The step whose reply is streaming now (in this tab or followed from another): never "no reply yet".
  if (isReplying && status === null) return { text, note: 'replying…' };
  // An apply step asks the model nothing: no reply is what it should have (a summary apply has one).
  if (isApply && text === null && status === 'complete') return { text, note: 'applied, no model call' };
  if (status === null) return { text, note: text === null ? 'no reply yet' : null };
  if (status === 'complete') return { text, note: text === null ? 'empty reply' : null };
  return { text, note: NOTES[status] };
}
