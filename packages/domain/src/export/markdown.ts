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
import { documentMarkdownParts, isBlankText, nestHeadings, trimPartsEnd, type DocumentMarkdownInput } from './document-markdown';

export interface MarkdownStep {
  readonly label: string;
  readonly messages: readonly (Pick<Message, 'role' | 'content' | 'tool_calls' | 'status'> & Partial<Pick<Message, 'reason' | 'usage'>>)[];
}

export interface PathMarkdownInput {
  readonly title: string;
  readonly steps: readonly MarkdownStep[];
  /** The document's content may come in pieces (see document-markdown). */
  readonly workspace: Pick<Workspace, 'objective' | 'preferences' | 'todos' | 'artifacts'> & Pick<DocumentMarkdownInput, 'document'>;
  /** Open comments, listed at the end with what they are about. */
  readonly comments?: readonly Pick<Comment, 'anchor' | 'body' | 'author' | 'parent_id'>[];
}

export function pathToMarkdown(input: PathMarkdownInput): string {
  return pathMarkdownParts(input).join('');
}

/**
 * {@link pathToMarkdown}'s text as parts whose concatenation is exactly that text, for a caller that
 * writes it out part by part (the family zip). The document's content appears only as slices of its
 * pieces (document-markdown), never copied whole; what follows the document is small next to it and
 * comes as one part.
 */
export function pathMarkdownParts({ title, steps, workspace, comments = [] }: PathMarkdownInput): string[] {
  // The document first: as written when it opens with its own top heading, else under the path's title.
  const document = trimPartsEnd(documentMarkdownParts({ pathTitle: title, document: workspace.document }));
  // What follows starts with the blank line after the document; it always holds text (the heading
  // below), so trimming the end of the whole only ever trims this part.
  const out: string[] = [''];
  if (isBlankText(workspace.document.content)) out.push('_The document is empty._', '');
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
