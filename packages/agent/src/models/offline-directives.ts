// The offline model's whole "intelligence", as pure functions: directive lines
// in the user's last message become tool calls; tool results become one
// sentence counting what changed; a message with no directive gets a short help text. Deterministic by design, so
// tests and benchmarks are reproducible and the studio works without a key.
import type { BaseMessage } from '@langchain/core/messages';
import { joinAnd, markdownHeadings, READ_PATH_TOOL, refsOfNote, sectionText, withoutRefsNote, type PathRef, type ReadPathAnswer } from '@trellis/domain';
import { offlinePathSummary } from '../prompts/path-summary';
import { MAX_TODO_DEPTH } from '../tools/define';

export type Directive =
  | { kind: 'objective'; text: string }
  | { kind: 'doc'; content: string }
  | { kind: 'append'; content: string }
  | { kind: 'prefer'; text: string }
  | { kind: 'todo'; text: string; depth: number }
  | { kind: 'done'; text: string }
  | { kind: 'artifact'; title: string; content: string };

export interface PlannedToolCall {
  name: string;
  args: Record<string, unknown>;
}

const DIRECTIVE_LINE = /^([ \t]*)(objective|doc|append|prefer|todo|done|artifact)[ \t]*:(.*)$/i;
/** Directives whose body continues on the following non-directive lines. */
const MULTILINE = new Set(['doc', 'append', 'artifact']);

interface RawDirective {
  keyword: string;
  indent: string;
  lines: string[];
}

/**
 * Parses the directive lines of a message. A directive is a line starting
 * (after optional indentation) with one of the keywords and a colon.
 * `doc:`, `append:` and `artifact:` also take every following non-directive
 * line as part of their body; other lines are ordinary chat and ignored.
 * Indentation before `todo:` gives its depth: two spaces (or one tab) per level.
 * Directives with an empty body are dropped.
 */
export function parseDirectives(message: string): Directive[] {
  const raw: RawDirective[] = [];
  let open: RawDirective | undefined;
  for (const line of message.replace(/\r\n?/g, '\n').split('\n')) {
    const match = DIRECTIVE_LINE.exec(line);
    if (match) {
      open = { keyword: (match[2] ?? '').toLowerCase(), indent: match[1] ?? '', lines: [(match[3] ?? '').replace(/^[ \t]/, '')] };
      raw.push(open);
    } else if (open !== undefined && MULTILINE.has(open.keyword)) {
      open.lines.push(line);
    } else {
      open = undefined;
    }
  }
  return raw.flatMap((d) => {
    const directive = toDirective(d);
    return directive === undefined ? [] : [directive];
  });
}

function toDirective({ keyword, indent, lines }: RawDirective): Directive | undefined {
  const first = (lines[0] ?? '').trim();
  switch (keyword) {
    case 'objective':
      return first ? { kind: 'objective', text: first } : undefined;
    case 'prefer':
      return first ? { kind: 'prefer', text: first } : undefined;
    case 'done':
      return first ? { kind: 'done', text: first } : undefined;
    case 'todo':
      return first ? { kind: 'todo', text: first, depth: depthOf(indent) } : undefined;
    case 'doc':
    case 'append': {
      const content = body(lines);
      return content ? { kind: keyword, content } : undefined;
    }
    case 'artifact': {
      const [head = '', ...rest] = lines;
      const bar = head.indexOf('|');
      const title = (bar === -1 ? head : head.slice(0, bar)).trim();
      const content = body([bar === -1 ? '' : head.slice(bar + 1), ...rest]);
      return title ? { kind: 'artifact', title, content } : undefined;
    }
    default:
      return undefined;
  }
}

/** Two spaces or one tab per level, capped at the deepest level a todo may have. */
export function depthOf(indent: string): number {
  let columns = 0;
  for (const ch of indent) columns += ch === '\t' ? 2 : 1;
  return Math.min(Math.floor(columns / 2), MAX_TODO_DEPTH);
}

/** Joins body lines, dropping blank lines at both ends and trailing spaces. */
function body(lines: string[]): string {
  const trimmed = lines.map((l) => l.replace(/[ \t]+$/, ''));
  while (trimmed.length > 0 && trimmed[0]?.trim() === '') trimmed.shift();
  while (trimmed.length > 0 && trimmed.at(-1)?.trim() === '') trimmed.pop();
  if (trimmed.length > 0) trimmed[0] = (trimmed[0] ?? '').trimStart();
  return trimmed.join('\n');
}

export function directiveToToolCall(directive: Directive): PlannedToolCall {
  switch (directive.kind) {
    case 'objective':
      return { name: 'set_objective', args: { text: directive.text } };
    case 'doc':
      return { name: 'write_document', args: { mode: 'replace', content: directive.content } };
    case 'append':
      return { name: 'write_document', args: { mode: 'append', content: directive.content } };
    case 'prefer':
      return { name: 'add_preference', args: { text: directive.text } };
    case 'todo':
      return { name: 'add_todo', args: { text: directive.text, depth: directive.depth } };
    case 'done':
      return { name: 'complete_todo', args: { text: directive.text } };
    case 'artifact':
      return { name: 'create_artifact', args: { kind: 'note', title: directive.title, content: directive.content } };
  }
}

export const OFFLINE_HELP =
  "I'm the offline model: I don't write prose, but I apply directives to the workspace. " +
  'Start a line with `objective:`, `doc:` (replaces the document; the lines below it are included), ' +
  '`append:`, `prefer:`, `todo:` (indent two spaces per level), `done:` (completes the matching todo) ' +
  'or `artifact: Title | content`, and I will make the change.';

export interface OfflineReply {
  text: string;
  toolCalls: PlannedToolCall[];
}

/**
 * Decides the offline model's next message from its input:
 * - after tool results (the input ends with tool messages): one sentence counting them;
 * - otherwise the directives of the last user message as tool calls (only
 *   tools that were bound), with no text;
 * - with no usable directive: the help text.
 */
export function planOfflineReply(messages: readonly BaseMessage[], boundTools: ReadonlySet<string>): OfflineReply {
  let firstResult = messages.length;
  while (firstResult > 0 && messages[firstResult - 1]?.type === 'tool') firstResult -= 1;
  const trailingResults = messages.slice(firstResult);
  const answered = callsBefore(messages, firstResult);
  const humanAt = messages.findLastIndex((m) => m.type === 'human');
  const lastHuman = humanAt === -1 ? undefined : messages[humanAt];
  const refs = lastHuman === undefined || !boundTools.has(READ_PATH_TOOL) ? [] : refsOfNote(lastHuman.text);
  if (refs.length > 0) {
    const planned = planWithRefs(refs, withoutRefsNote(lastHuman!.text), messages.slice(humanAt + 1), trailingResults, answered, boundTools);
    if (planned !== null) return planned;
  }
  if (trailingResults.length > 0) return { text: summarizeResults(trailingResults, answered), toolCalls: [] };

  const summary = lastHuman === undefined ? null : offlinePathSummary(lastHuman.text);
  if (summary !== null) return { text: summary, toolCalls: [] };
  const directives = lastHuman === undefined ? [] : parseDirectives(lastHuman.text);
  const calls = directives.map(directiveToToolCall);
  const usable = calls.filter((c) => boundTools.has(c.name));
  if (usable.length > 0) return { text: '', toolCalls: usable };
  if (calls.length > 0) return { text: 'I understood your directives, but no workspace tools are available to me right now.', toolCalls: [] };
  return { text: OFFLINE_HELP, toolCalls: [] };
}

/** `append from 4.1: Methods` — copy that section of the cited step's document to the end of this one. */
const APPEND_FROM_LINE = /^[ \t]*append from[ \t]+(\S+?)[ \t]*:[ \t]*(.+)$/i;

function parseAppendFrom(message: string): { label: string; heading: string }[] {
  return message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .flatMap((line) => {
      const match = APPEND_FROM_LINE.exec(line);
      const heading = match?.[2]?.replace(/^#+\s*/, '').trim();
      return match && heading ? [{ label: match[1]!.replace(/^@/, ''), heading }] : [];
    });
}

/**
 * A turn whose message references other paths: first `read_path` once for each reference; with what
 * it read, the message's directives (an `append from` copies a section of a cited document); then an
 * answer that names each label it read. Null where the ordinary plan applies.
 */
function planWithRefs(
  refs: readonly PathRef[],
  text: string,
  sinceQuestion: readonly BaseMessage[],
  trailingResults: readonly BaseMessage[],
  answered: ReadonlyMap<string, PlannedToolCall>,
  boundTools: ReadonlySet<string>,
): OfflineReply | null {
  const reads = sinceQuestion.filter((m) => m.type === 'tool' && (m as { name?: unknown }).name === READ_PATH_TOOL);
  if (reads.length === 0) {
    return { text: '', toolCalls: refs.map((ref) => ({ name: READ_PATH_TOOL, args: { thread_id: ref.thread_id, turn: ref.turn } })) };
  }
  const answers = reads.flatMap((m) => {
    const answer = parseAnswer(m.text);
    return answer === null ? [] : [answer];
  });
  const isAfterReads = trailingResults.length > 0 && trailingResults.every((m) => (m as { name?: unknown }).name === READ_PATH_TOOL);
  if (isAfterReads) {
    const calls: PlannedToolCall[] = [];
    const missing: string[] = [];
    for (const { label, heading } of parseAppendFrom(text)) {
      const answer = answers.find((a) => a.path === label);
      const section = answer?.document === undefined ? null : findSectionText(answer.document.content, heading);
      if (section === null) missing.push(`I found no section “${heading}” in ${label}.`);
      else calls.push({ name: 'write_document', args: { mode: 'append', content: section } });
    }
    calls.push(...parseDirectives(text).map(directiveToToolCall));
    const usable = calls.filter((c) => boundTools.has(c.name));
    if (usable.length > 0) return { text: missing.join(' '), toolCalls: usable };
    return { text: [readLines(answers), ...missing].join('\n\n'), toolCalls: [] };
  }
  if (trailingResults.length > 0) return { text: `${readLines(answers)}\n\n${summarizeResults(trailingResults, answered)}`, toolCalls: [] };
  return null;
}

function parseAnswer(text: string): ReadPathAnswer | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && typeof (value as { path?: unknown }).path === 'string' ? (value as ReadPathAnswer) : null;
  } catch {
    return null;
  }
}

/** A section by its heading, exactly or else ignoring case; its trailing blank lines dropped. */
function findSectionText(markdown: string, heading: string): string | null {
  const exact = sectionText(markdown, heading);
  const wanted = heading.toLowerCase();
  const other = exact ?? markdownHeadings(markdown).find((h) => h.text.trim().toLowerCase() === wanted);
  const found = typeof other === 'string' ? other : other === undefined ? null : sectionText(markdown, other.text);
  const trimmed = found?.replace(/\s+$/, '');
  return trimmed ? trimmed : null;
}

/** One line per step read, naming its label. */
function readLines(answers: readonly ReadPathAnswer[]): string {
  return answers
    .map((a) => {
      const parts = [
        a.document && `the document “${a.document.title || 'Untitled'}” (${a.document.content.length} characters)`,
        a.todos && `${plural(a.todos.length, 'todo')}`,
        a.preferences && `${plural(a.preferences.length, 'preference')}`,
      ].filter(Boolean);
      return `I read ${a.path} (“${a.title}”, step ${a.turn}): ${parts.join(', ')}.`;
    })
    .join('\n');
}

/** The tool calls of the assistant message right before the results, by call id. */
function callsBefore(messages: readonly BaseMessage[], firstResult: number): Map<string, PlannedToolCall> {
  const byId = new Map<string, PlannedToolCall>();
  const caller = messages[firstResult - 1] as { tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[] } | undefined;
  for (const call of caller?.tool_calls ?? []) if (call.id !== undefined) byId.set(call.id, { name: call.name, args: call.args });
  return byId;
}

/**
 * What one successful call changed, as a verb and the thing counted ("added" "todo"). Calls with
 * the same verb and noun add up, so a thousand directives read as one sentence.
 */
function describeCall(name: string, args: Record<string, unknown> | undefined): { verb: string; noun: string; count: number } {
  switch (name) {
    case 'add_todo':
      return { verb: 'added', noun: 'todo', count: 1 };
    case 'update_todo':
      return { verb: 'updated', noun: 'todo', count: 1 };
    case 'complete_todo':
      return { verb: 'completed', noun: 'todo', count: 1 };
    case 'remove_todo':
      return { verb: 'removed', noun: 'todo', count: 1 };
    case 'add_preference':
      return { verb: 'added', noun: 'preference', count: 1 };
    case 'update_preference':
      return { verb: 'updated', noun: 'preference', count: 1 };
    case 'remove_preference':
      return { verb: 'removed', noun: 'preference', count: 1 };
    case 'set_objective':
      return { verb: 'set', noun: 'objective', count: 1 };
    case 'create_artifact':
      return { verb: 'created', noun: 'artifact', count: 1 };
    case 'replace_section':
      return { verb: 'rewrote', noun: 'section', count: 1 };
    case 'write_document':
      return args?.mode === 'append'
        ? { verb: 'appended', noun: 'paragraph', count: paragraphCount(args.content) }
        : { verb: 'replaced', noun: 'document', count: 1 };
    default:
      return { verb: 'made', noun: 'other change', count: 1 };
  }
}

function paragraphCount(content: unknown): number {
  if (typeof content !== 'string') return 1;
  return Math.max(1, content.split(/\n[ \t]*\n/).filter((p) => p.trim() !== '').length);
}

/** Things there is one of: "set the objective", not "set 1 objective". */
const SINGULAR = new Set(['objective', 'document']);

/**
 * One sentence for every result: "Added 120 todos, appended 2 paragraphs and set the objective."
 * Each result is shown beside the reply already (one chip each, with its words), so the reply
 * does not list them again; a refusal is counted here and explained by its own chip.
 */
function summarizeResults(results: readonly BaseMessage[], calls: ReadonlyMap<string, PlannedToolCall>): string {
  const tally = new Map<string, { verb: string; noun: string; count: number }>();
  let refused = 0;
  for (const result of results) {
    if (isErrorResult(result)) {
      refused += 1;
      continue;
    }
    const id = (result as { tool_call_id?: unknown }).tool_call_id;
    const call = typeof id === 'string' ? calls.get(id) : undefined;
    const name = call?.name ?? (typeof result.name === 'string' ? result.name : '');
    const change = describeCall(name, call?.args);
    const key = `${change.verb} ${change.noun}`;
    const seen = tally.get(key);
    if (seen === undefined) tally.set(key, change);
    else seen.count += change.count;
  }
  const phrases = [...tally.values()].map(({ verb, noun, count }) =>
    SINGULAR.has(noun) ? `${verb} the ${noun}` : `${verb} ${plural(count, noun)}`,
  );
  const refusal = refused === 0 ? '' : `${phrases.length === 0 ? 'I could not make' : '; I could not make'} ${refused === 1 ? '1 change' : `${refused} changes`}`;
  if (phrases.length === 0) return `${capitalize(refusal.trimStart())}.`;
  return `${capitalize(joinAnd(phrases))}${refusal}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isErrorResult(message: BaseMessage): boolean {
  return (message as { status?: unknown }).status === 'error';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Splits a reply into word-sized stream chunks whose concatenation is the reply. */
export function splitIntoChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}
