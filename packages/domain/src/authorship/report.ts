// The authorship report: a Markdown statement of who wrote the displayed path's
// final document, to paste into an AI-use disclosure. Pure: the service hands in the text, its spans,
// the path's steps (labels and the prompts that opened them) and the names of applied sources.
import { previewText } from '../workspace/snapshot';
import { summarizeAuthorship, wordStarts } from './summary';
import type { AuthorshipSpan, AuthorshipSummary } from './types';

export interface ReportStep {
  turn: number;
  label: string;
  /** The message that opened the step (a person's prompt); null when none (an apply, an import). */
  prompt: string | null;
}

export interface AuthorshipReportInput {
  title: string;
  pathLabel: string;
  generatedAt: string;
  text: string;
  spans: readonly AuthorshipSpan[];
  steps: readonly ReportStep[];
  /** Labels of apply sources (`"{thread_id}:{turn}"` → a step label); unnamed sources show as given. */
  sourceLabels?: Readonly<Record<string, string>>;
}

export interface DocumentSection {
  title: string;
  start: number;
  end: number;
}

/** Sections of a Markdown document: split at ATX headings; text before the first heading is its own. */
export function documentSections(text: string): DocumentSection[] {
  const sections: DocumentSection[] = [];
  const heading = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm;
  let start = 0;
  let title = '(before the first heading)';
  for (const match of text.matchAll(heading)) {
    if (match.index > start) sections.push({ title, start, end: match.index });
    start = match.index;
    title = (match[1] ?? '').trim() || '(untitled section)';
  }
  if (text.length > start) sections.push({ title, start, end: text.length });
  return sections;
}

function total(s: AuthorshipSummary): number {
  return s.person_words + s.agent_words + s.agent_edited_words + s.unknown_words;
}

/** `n (p%)`, one decimal; the share of `of`. */
function share(n: number, of: number): string {
  return n === 0 || of === 0 ? String(n) : `${n} (${((100 * n) / of).toFixed(1)}%)`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

export function authorshipReport(input: AuthorshipReportInput): string {
  const { text, spans } = input;
  const words = wordStarts(text);
  const whole = summarizeAuthorship(text, spans, 0, text.length, words);
  const all = total(whole);
  const lines: string[] = [
    `# Authorship report: ${input.title || 'Untitled document'}`,
    '',
    `Path: ${input.pathLabel}. Generated ${input.generatedAt} by Trellis from its change log.`,
    'Words are counted by Unicode word segmentation; a word counts for the author of its first character.',
    'A sentence, heading, list item or table cell the agent wrote and the person then changed counts as "agent, edited by the person".',
    '',
    '## The final document',
    '',
    '| Author | Words |',
    '| --- | --- |',
    `| Person | ${share(whole.person_words, all)} |`,
    `| Agent | ${share(whole.agent_words, all)} |`,
    `| Agent, edited by the person | ${share(whole.agent_edited_words, all)} |`,
    `| Unknown (written before the change log) | ${share(whole.unknown_words, all)} |`,
    `| Total | ${all} |`,
    '',
    '## By section',
    '',
    '| Section | Person | Agent | Agent, edited | Unknown | Words |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const section of documentSections(text)) {
    const s = summarizeAuthorship(text, spans, section.start, section.end, words);
    const n = total(s);
    lines.push(
      `| ${cell(section.title)} | ${share(s.person_words, n)} | ${share(s.agent_words, n)} | ${share(s.agent_edited_words, n)} | ${share(s.unknown_words, n)} | ${n} |`,
    );
  }

  // Words still in the final document per step the agent wrote them at (applied text is listed below).
  const agentWordsByTurn = new Map<number, number>();
  const appliedBySource = new Map<string, AuthorshipSummary>();
  const citedBySource = new Map<string, number>();
  let index = 0;
  for (const start of words) {
    while (index < spans.length && (spans[index] as AuthorshipSpan).end <= start) index++;
    const span = spans[index];
    if (!span) continue;
    if (span.via === 'apply') {
      const key = span.source ?? 'another path';
      const s = appliedBySource.get(key) ?? { person_words: 0, agent_words: 0, agent_edited_words: 0, unknown_words: 0 };
      s[`${span.author}_words`]++;
      appliedBySource.set(key, s);
    } else if (span.author === 'agent' && span.turn !== null) {
      agentWordsByTurn.set(span.turn, (agentWordsByTurn.get(span.turn) ?? 0) + 1);
      // The agent's words copied from a step it read on another path count for the agent, and here.
      if (span.via === 'cite' && span.source) citedBySource.set(span.source, (citedBySource.get(span.source) ?? 0) + 1);
    }
  }
  lines.push('', '## Steps where the agent wrote text that is in the final document', '');
  if (agentWordsByTurn.size === 0) lines.push('None.');
  const steps = new Map(input.steps.map((step) => [step.turn, step]));
  for (const [turn, n] of [...agentWordsByTurn].sort((a, b) => a[0] - b[0])) {
    const step = steps.get(turn);
    const prompt = step?.prompt ? ` — asked: “${previewText(step.prompt)}”` : '';
    lines.push(`- ${step?.label ?? `Step ${turn}`}: ${n} word${n === 1 ? '' : 's'}${prompt}`);
  }
  lines.push('', '## Applied from other paths', '');
  if (appliedBySource.size === 0) lines.push('None.');
  for (const [source, s] of appliedBySource) {
    const parts = [
      s.person_words && `person ${s.person_words}`,
      s.agent_words && `agent ${s.agent_words}`,
      s.agent_edited_words && `agent, edited ${s.agent_edited_words}`,
      s.unknown_words && `unknown ${s.unknown_words}`,
    ].filter(Boolean);
    lines.push(`- From ${input.sourceLabels?.[source] ?? source}: ${total(s)} words (${parts.join(', ')})`);
  }
  lines.push('', '## Copied by the agent from cited paths', '');
  if (citedBySource.size === 0) lines.push('None.');
  for (const [source, n] of citedBySource) {
    lines.push(`- Agent, from ${input.sourceLabels?.[source] ?? source}: ${n} word${n === 1 ? '' : 's'}`);
  }
  lines.push('');
  return lines.join('\n');
}
