import { OVERLAY_LABELS, overlayKind, type Authorship, type AuthorshipChange } from '@trellis/domain';

type Span = Authorship['spans'][number];

const AUTHOR_WORDS: Record<Span['author'], string> = {
  person: 'you',
  agent: 'the agent',
  agent_edited: 'the agent, edited by you',
  unknown: 'unknown',
};

/** What a span's hover reads besides the span: its steps' labels and the changes it names. */
export interface SpanContext {
  labels: ReadonlyMap<number, string>;
  changes: ReadonlyMap<number, AuthorshipChange>;
  /** The labels of cited steps (`{thread_id}:{turn}` → "4.1"). */
  sources: ReadonlyMap<string, string>;
  /** How a change's time reads (the reader's locale by default). */
  formatTime: (iso: string) => string;
}

const TIME = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

export function spanContext(authorship: Pick<Authorship, 'steps' | 'changes' | 'sources'> | undefined): SpanContext {
  return {
    sources: new Map((authorship?.sources ?? []).map((s) => [s.source, s.label])),
    labels: new Map((authorship?.steps ?? []).map((s) => [s.turn, s.label])),
    changes: new Map((authorship?.changes ?? []).map((c) => [c.seq, c])),
    formatTime: (iso) => TIME.format(new Date(iso)),
  };
}

/**
 * What hovering a span says: who, the step it came from, when, and for the agent the tool call that
 * wrote it (applied text: its source and first author).
 */
export function spanTitle(span: Span, context: SpanContext): string {
  const kind = overlayKind(span);
  if (kind === 'applied') {
    const origin = span.turn === null ? '' : ` at step ${span.turn}`;
    return `Applied from ${span.source ?? 'another path'} · written by ${AUTHOR_WORDS[span.author]}${origin}`;
  }
  if (span.turn === null) return OVERLAY_LABELS[kind];
  // Copied by the agent from a step it read: "Agent, from 4.1", like applied text names its source.
  const who = kind === 'cited' ? `Agent, from ${(span.source && context.sources.get(span.source)) ?? 'another path'}` : OVERLAY_LABELS[kind];
  const parts = [who, `step ${context.labels.get(span.turn) ?? span.turn}`];
  const change = span.seq === null ? undefined : context.changes.get(span.seq);
  if (change) {
    parts.push(context.formatTime(change.at));
    if (change.tool_call) parts.push(`tool call ${change.tool_call.name ?? change.tool_call.id}`);
  }
  return parts.join(' · ');
}
