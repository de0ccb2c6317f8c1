import { OVERLAY_LABELS, overlayKind, type Authorship } from '@trellis/domain';

type Span = Authorship['spans'][number];

const AUTHOR_WORDS: Record<Span['author'], string> = {
  person: 'you',
  agent: 'the agent',
  agent_edited: 'the agent, edited by you',
  unknown: 'unknown',
};

/** What hovering a span says: who, and the step it came from (applied text: its source and first author). */
export function spanTitle(span: Span, labels: ReadonlyMap<number, string>): string {
  const kind = overlayKind(span);
  if (kind === 'applied') {
    const origin = span.turn === null ? '' : ` at step ${span.turn}`;
    return `Applied from ${span.source ?? 'another path'} · written by ${AUTHOR_WORDS[span.author]}${origin}`;
  }
  if (span.turn === null) return OVERLAY_LABELS[kind];
  return `${OVERLAY_LABELS[kind]} · step ${labels.get(span.turn) ?? span.turn}`;
}

export function stepLabels(authorship: Pick<Authorship, 'steps'> | undefined): Map<number, string> {
  return new Map((authorship?.steps ?? []).map((s) => [s.turn, s.label]));
}
