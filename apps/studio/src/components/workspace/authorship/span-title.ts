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
  /** Steps of other paths that applied and cited text name (`{thread_id}:{turn}`), by label and path title. */
  sources: ReadonlyMap<string, { label: string; path_title: string }>;
  /** How a change's time reads (the reader's locale by default). */
  formatTime: (iso: string) => string;
  /**
   * The people the spans name, by `user_id`: their name and their colour's index. Empty unless two or
   * more people wrote in the document — one person's text keeps the plain "You" shade.
   */
  people: ReadonlyMap<string, { name: string; index: number }>;
}

/** How many person colours the overlay has (a seventh person shares the first one's). */
export const PERSON_COLOURS = 6;

/** The classes of a span's mark: its shade and, when several people wrote, its person's colour. */
export function spanClasses(span: Span, context: SpanContext): string[] {
  const kind = overlayKind(span);
  const person = kind === 'person' && span.user_id ? context.people.get(span.user_id) : undefined;
  return ['authorship-mark', `authorship-${kind}`, ...(person ? [`authorship-person-${person.index % PERSON_COLOURS}`] : [])];
}

const TIME = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

export function spanContext(authorship: Pick<Authorship, 'steps' | 'changes' | 'sources' | 'people'> | undefined): SpanContext {
  const people = authorship?.people ?? [];
  return {
    people: new Map(people.length > 1 ? people.map((p, index) => [p.user_id, { name: p.name, index }]) : []),
    labels: new Map((authorship?.steps ?? []).map((s) => [s.turn, s.label])),
    changes: new Map((authorship?.changes ?? []).map((c) => [c.seq, c])),
    sources: new Map((authorship?.sources ?? []).map((s) => [s.node_id, s])),
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
    // Steps are named by label and path title; an id is never shown (one the read did not name reads "another path").
    const step = (nodeId: string | undefined) => {
      const found = nodeId === undefined ? undefined : context.sources.get(nodeId);
      return found ? `step ${found.label} (“${found.path_title}”)` : undefined;
    };
    const from = step(span.source) ?? 'another path';
    const written = span.thread_id && span.turn !== null ? step(`${span.thread_id}:${span.turn}`) : undefined;
    return `Applied from ${from} · written by ${AUTHOR_WORDS[span.author]}${written ? ` at ${written}` : ''}`;
  }
  if (span.turn === null) return OVERLAY_LABELS[kind];
  // Copied by the agent from a step it read: "Agent, from 4.1", named like applied text's source.
  const who =
    kind === 'cited'
      ? `Agent, from ${(span.source && context.sources.get(span.source)?.label) ?? 'another path'}`
      : personLabel(span, context) ?? OVERLAY_LABELS[kind];
  const parts = [who, `step ${context.labels.get(span.turn) ?? span.turn}`];
  const change = span.seq === null ? undefined : context.changes.get(span.seq);
  if (change) {
    parts.push(context.formatTime(change.at));
    if (change.tool_call) parts.push(`tool call ${change.tool_call.name ?? change.tool_call.id}`);
  }
  return parts.join(' · ');
}

/** A named person's text or the agent's text they edited, when several people wrote: "Ben", "Agent, edited by Ben". */
function personLabel(span: Span, context: SpanContext): string | undefined {
  const person = span.user_id ? context.people.get(span.user_id) : undefined;
  if (!person) return undefined;
  if (span.author === 'person') return person.name;
  if (span.author === 'agent_edited') return `Agent, edited by ${person.name}`;
  return undefined;
}
