// The prompt of a path summary (an apply's `summary` item, docs/branching.md, "Apply"): the source
// path's steps, each with its message and what it changed, for one agent turn whose reply is filed
// as an artifact. Lines start with "- ", never with a directive keyword, so the offline model does
// not read a step's message as a command. The offline model answers it deterministically.

export interface PathSummaryStep {
  label: string;
  /** The step's opening message preview, or null. */
  message: string | null;
  /** What the step changed, or null when its summary was never stored. */
  changes: { words_added: number; words_removed: number; items_added: number; items_removed: number; items_edited: number } | null;
}

const HEAD = 'Summarise path ';
const STEP_LINE = /^- Step (\S+): (?:\+(\d+)\/−(\d+) words, \+(\d+) \/ −(\d+) \/ ~(\d+) items|changes unknown)(?: — .*)?$/;

export function pathSummaryPrompt(input: { label: string; steps: readonly PathSummaryStep[]; omitted: number }): string {
  const lines = input.steps.map((step) => {
    const c = step.changes;
    const counts = c
      ? `+${c.words_added}/−${c.words_removed} words, +${c.items_added} / −${c.items_removed} / ~${c.items_edited} items`
      : 'changes unknown';
    return `- Step ${step.label}: ${counts}${step.message ? ` — ${JSON.stringify(step.message)}` : ''}`;
  });
  return [
    `${HEAD}${input.label}: what its steps asked for and what they changed in the workspace, in a few sentences.`,
    'Reply with the summary only; do not change the workspace.',
    '',
    ...(input.omitted > 0 ? [`- (${input.omitted} earlier steps left out)`] : []),
    ...lines,
  ].join('\n');
}

/** The offline model's answer to a path-summary prompt: counts per step and in total; null for any other text. */
export function offlinePathSummary(prompt: string): string | null {
  if (!prompt.startsWith(HEAD)) return null;
  const label = prompt.slice(HEAD.length).split(':')[0] ?? '';
  const steps = prompt
    .split('\n')
    .map((line) => STEP_LINE.exec(line))
    .filter((match): match is RegExpExecArray => match !== null);
  const total = [0, 0, 0, 0, 0];
  const lines = steps.map((match) => {
    if (match[2] === undefined) return `- Step ${match[1]}: changes unknown`;
    const counts = match.slice(2, 7).map(Number);
    counts.forEach((n, i) => (total[i]! += n));
    return `- Step ${match[1]}: ${counts[0]} words added, ${counts[1]} removed; ${counts[2]} items added, ${counts[3]} removed, ${counts[4]} edited`;
  });
  const head = `Path ${label} has ${steps.length} step${steps.length === 1 ? '' : 's'}: ${total[0]} words added and ${total[1]} removed, ${total[2]} items added, ${total[3]} removed and ${total[4]} edited.`;
  return [head, '', ...lines].join('\n');
}
