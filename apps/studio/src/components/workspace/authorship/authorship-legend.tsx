import { PERSON_COLOURS } from './span-title';
import {
  OVERLAY_KINDS,
  OVERLAY_LABELS,
  overlayKind,
  type Authorship,
  type OverlayKind,
} from '@trellis/domain';

/** Words per shade: the summary's four authors; applied words count under their original author, cited ones under the agent. */
function wordsOf(kind: OverlayKind, summary: Authorship['summary']): number | null {
  switch (kind) {
    case 'person':
      return summary.person_words;
    case 'agent':
      return summary.agent_words;
    case 'agent_edited':
      return summary.agent_edited_words;
    case 'unknown':
      return summary.unknown_words;
    case 'applied':
    case 'cited':
      return null;
  }
}

/**
 * The overlay's legend: each shade, its name and (from the summary) its words. When two or more
 * people wrote in the document, each has a colour and an entry of their own, by name.
 */
export function AuthorshipLegend({ authorship }: { authorship: Authorship }) {
  const present = new Set(authorship.spans.map((s) => overlayKind(s)));
  const people = authorship.people.length > 1 ? authorship.people : [];
  return (
    <ul
      aria-label="Authorship legend"
      data-testid="authorship-legend"
      className="flex flex-wrap gap-x-3 gap-y-1 px-3 py-2 text-xs"
    >
      {people.map((person, index) => (
        <li
          key={person.user_id}
          className="inline-flex items-center gap-1.5"
          data-testid="authorship-legend-person"
          data-user-id={person.user_id}
        >
          <span
            aria-hidden
            className={`authorship-mark authorship-person authorship-person-${index % PERSON_COLOURS} inline-block h-3 w-4 rounded-sm`}
          />
          <span>
            {person.name}
            <span className="text-muted-foreground"> · {person.words} words</span>
          </span>
        </li>
      ))}
      {OVERLAY_KINDS.filter((kind) => present.has(kind) || (kind !== 'applied' && kind !== 'cited'))
        .filter((kind) => kind !== 'person' || people.length === 0)
        .map((kind) => {
          const words = wordsOf(kind, authorship.summary);
          return (
            <li
              key={kind}
              className="inline-flex items-center gap-1.5"
              data-testid={`authorship-legend-${kind}`}
            >
              <span
                aria-hidden
                className={`authorship-mark authorship-${kind} inline-block h-3 w-4 rounded-sm`}
              />
              <span>
                {kind === 'agent_edited' && people.length > 0 ? 'Agent, edited by a person' : OVERLAY_LABELS[kind]}
                {words !== null && <span className="text-muted-foreground"> · {words} words</span>}
              </span>
            </li>
          );
        })}
    </ul>
  );
}
