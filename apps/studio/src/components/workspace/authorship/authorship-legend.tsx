import { OVERLAY_KINDS, OVERLAY_LABELS, overlayKind, type Authorship, type OverlayKind } from '@trellis/domain';

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

/** The overlay's legend: each shade, its name and (from the summary) its words. */
export function AuthorshipLegend({ authorship }: { authorship: Authorship }) {
  const present = new Set(authorship.spans.map((s) => overlayKind(s)));
  return (
    <ul aria-label="Authorship legend" data-testid="authorship-legend" className="flex flex-wrap gap-x-3 gap-y-1 px-3 py-2 text-xs">
      {OVERLAY_KINDS.filter((kind) => present.has(kind) || (kind !== 'applied' && kind !== 'cited')).map((kind) => {
        const words = wordsOf(kind, authorship.summary);
        return (
          <li key={kind} className="inline-flex items-center gap-1.5" data-testid={`authorship-legend-${kind}`}>
            <span aria-hidden className={`authorship-mark authorship-${kind} inline-block h-3 w-4 rounded-sm`} />
            <span>
              {OVERLAY_LABELS[kind]}
              {words !== null && <span className="text-muted-foreground"> · {words} words</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
