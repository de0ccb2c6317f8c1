/**
 * A path as a document to hand to someone (docs/branching.md, "Export"): the document first, under
 * the path's title, then "How this document was made" (a heading per step with its label, the user
 * message, each tool call on one line, the reply), then the rest of the workspace. Headings inside
 * the document and the replies are moved below the export's own, so the outline holds.
 * Pure and linear in the size of its input: parts are collected and joined once.
 */
import type { Comment } from '../contracts/comments';
import type { Message } from '../contracts/messages';
import type { Workspace } from '../contracts/workspace';
import { markdownHeadings } from '../apply/sections';
import { displayedDocumentTitle } from '../workspace/document-title';
import { titleText } from './filename';

export interface MarkdownStep {
  readonly label: string;
  readonly messages: readonly (Pick<Message, 'role' | 'content' | 'tool_calls' | 'status'> & Partial<Pick<Message, 'reason' | 'usage'>>)[];
}

export interface PathMarkdownInput {
  readonly title: string;
  readonly steps: readonly MarkdownStep[];
  readonly workspace: Pick<Workspace, 'objective' | 'document' | 'preferences' | 'todos' | 'artifacts'>;
  /** Open comments, listed at the end with what they are about. */
  readonly comments?: readonly Pick<Comment, 'anchor' | 'body' | 'author' | 'parent_id'>[];
}

export function pathToMarkdown(input: PathMarkdownInput): string {
  return pathMarkdownParts(input).join('');
}

/**
 * {@link pathToMarkdown}'s text as parts whose concatenation is exactly that text, for a caller that
 * writes it out piece by piece (the family zip). The document's content appears only as slices of
 * itself, never copied whole: a large document costs no second copy of its size per path. What
 * follows the document is small next to it and comes as one part.
 */
export function pathMarkdownParts({ title, steps, workspace, comments = [] }: PathMarkdownInput): string[] {
  // The document first: as written when it opens with its own top heading, else under the path's title.
  const document = trimPartsEnd(documentMarkdownParts({ pathTitle: title, document: workspace.document }));
  // What follows starts with the blank line after the document; it always holds text (the heading
  // below), so trimming the end of the whole only ever trims this part.
  const out: string[] = [''];
  if (isBlank(workspace.document.content)) out.push('_The document is empty._', '');
  out.push('## How this document was made', '');
  if (steps.length === 0) out.push('_No steps yet._', '');
  for (const step of steps) {
    out.push(`### Step ${step.label}`, '');
    for (const message of step.messages) {
      if (message.role === 'user') {
        out.push('**You:**', '', quote(message.content), '');
        continue;
      }
      if (message.role === 'system') {
        // An apply entry: no one said it and no model answers it.
        out.push(`_${oneLine(message.content.split('\n')[0] ?? '')}_`, '');
        const note = message.content.split('\n').slice(1).join('\n').trim();
        if (note !== '') out.push(quote(note), '');
        continue;
      }
      for (const call of message.tool_calls) out.push(`- Tool \`${call.name}\`: ${toolLine(call)}`);
      if (message.tool_calls.length > 0) out.push('');
      out.push('**Agent:**', '');
      if (message.content.trim() !== '') out.push(nestHeadings(message.content, 4).trimEnd(), '');
      if (message.status !== 'complete') {
        const reason = message.reason ? `: ${oneLine(message.reason)}` : '';
        out.push(`_(${message.status === 'interrupted' ? 'stopped' : 'failed'}${reason})_`, '');
      }
      if (message.usage) {
        const { model, input_tokens: input, output_tokens: output } = message.usage;
        out.push(`_${oneLine(model)} · ${input} tokens in, ${output} out_`, '');
      }
    }
    if (!step.messages.some((m) => m.role !== 'user')) out.push('_(no reply)_', '');
  }
  out.push('## Workspace', '');
  out.push('### Objective', '', workspace.objective?.trim() ? oneLine(workspace.objective) : '_none_', '');
  out.push('### Preferences', '');
  if (workspace.preferences.length === 0) out.push('_none_');
  for (const p of workspace.preferences) out.push(`- ${oneLine(p.text)}${p.locked ? ' (locked)' : ''}`);
  out.push('', '### Todos', '');
  if (workspace.todos.length === 0) out.push('_none_');
  for (const t of workspace.todos) out.push(`${'  '.repeat(t.depth)}- [${t.done ? 'x' : ' '}] ${oneLine(t.text)}`);
  out.push('', '### Artifacts', '');
  if (workspace.artifacts.length === 0) out.push('_none_', '');
  for (const a of workspace.artifacts) {
    out.push(`#### ${a.number}. ${oneLine(a.title)} (${oneLine(a.kind)})`, '', fenced(a.content), '');
  }
  if (comments.length > 0) {
    out.push('## Open comments', '');
    for (const c of comments) {
      const about =
        c.anchor.kind === 'passage'
          ? `on “${oneLine(c.anchor.quote)}”${c.anchor.orphaned ? ' (that text is gone)' : ''}`
          : `on step ${c.anchor.turn}${c.anchor.kind === 'message' ? ', a message' : ''}`;
      out.push(`${c.parent_id === null ? '-' : '  -'} **${oneLine(c.author.name)}** ${about}: ${oneLine(c.body)}`);
    }
    out.push('');
  }
  return [...document, `\n${out.join('\n').trimEnd()}\n`];
}

/**
 * The document alone, as it stands: when its body opens with its one top heading it is the file as
 * written; otherwise a clean `#` heading (the document's title, else the path's) goes first and the
 * body's headings move below it.
 */
export function documentToMarkdown(input: DocumentMarkdownInput): string {
  return documentMarkdownParts(input).join('');
}

type DocumentMarkdownInput = { pathTitle: string; document: Pick<Workspace['document'], 'title' | 'content'> };

/** {@link documentToMarkdown}'s text as parts: the content only as slices of itself. */
function documentMarkdownParts(input: DocumentMarkdownInput): string[] {
  const { content } = input.document;
  if (opensWithItsTitle(content)) return [...trimParts([content]), '\n'];
  const title = displayedDocumentTitle(input.document.title, '') ?? input.pathTitle;
  const heading = `# ${headingText(title)}\n`;
  return isBlank(content) ? [heading] : [heading, '\n', ...trimParts(nestHeadingParts(content, 2)), '\n'];
}

/**
 * Moves every ATX heading outside code fences (apply/sections' scan) down so the shallowest becomes
 * level `top` (at most level 6); a text whose shallowest heading is already at or below `top` is
 * unchanged.
 */
export function nestHeadings(markdown: string, top: number): string {
  return nestHeadingParts(markdown, top).join('');
}

/** {@link nestHeadings}' text as parts: slices of the markdown between the headings' new `#` runs. */
function nestHeadingParts(markdown: string, top: number): string[] {
  const headings = markdownHeadings(markdown);
  if (headings.length === 0) return [markdown];
  const shift = top - Math.min(...headings.map((h) => h.level));
  if (shift <= 0) return [markdown];
  const out: string[] = [];
  let at = 0;
  for (const { start, level } of headings) {
    const hashes = markdown.indexOf('#', start);
    out.push(markdown.slice(at, hashes), '#'.repeat(Math.min(6, level + shift)));
    at = hashes + level;
  }
  out.push(markdown.slice(at));
  return out;
}

/**
 * The parts with the whitespace that `trim` would remove from their concatenation removed: blank
 * parts at either end dropped, the outermost remaining ones trimmed (a slice of a slice, no copy).
 */
function trimParts(parts: readonly string[]): string[] {
  let first = 0;
  while (first < parts.length && isBlank(parts[first]!)) first++;
  const out = parts.slice(first);
  if (out.length > 0) out[0] = out[0]!.trimStart();
  return trimPartsEnd(out);
}

function trimPartsEnd(parts: readonly string[]): string[] {
  let end = parts.length;
  while (end > 0 && isBlank(parts[end - 1]!)) end--;
  const out = parts.slice(0, end);
  if (out.length > 0) out[end - 1] = out[end - 1]!.trimEnd();
  return out;
}

/** Nothing but whitespace (`\s` is the set `trim` removes), found without copying the text. */
function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

/** The first line holds a top heading and no other top heading follows (else the sections need a title above them). */
function opensWithItsTitle(content: string): boolean {
  const tops = markdownHeadings(content).filter((h) => h.level === 1);
  return tops.length === 1 && content.slice(0, tops[0]!.start).trim() === '';
}

function headingText(title: string): string {
  return titleText(title) || 'Untitled';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quote(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** A code fence longer than any backtick run inside, so the content cannot close it. */
function fenced(content: string): string {
  const longest = Math.max(2, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${content.trimEnd()}\n${fence}`;
}

function toolLine(call: { args: Record<string, unknown>; result?: string; is_error?: boolean }): string {
  const args = Object.entries(call.args)
    .map(([key, value]) => `${key}=${clip(typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? '', 80)}`)
    .join(', ');
  const result = call.result === undefined ? '' : ` → ${call.is_error ? 'refused: ' : ''}${clip(oneLine(call.result), 120)}`;
  return `${args === '' ? '(no arguments)' : args}${result}`;
}

function clip(text: string, max: number): string {
  const flat = oneLine(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
