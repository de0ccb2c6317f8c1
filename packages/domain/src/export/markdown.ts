/**
 * A path as a readable Markdown document (docs/branching.md, "Export"): a heading per step with its
 * label, the user message, the reply and each tool call on one line, then the final workspace.
 * Pure and linear in the size of its input: parts are collected and joined once.
 */
import type { Message } from '../contracts/messages';
import type { Workspace } from '../contracts/workspace';

export interface MarkdownStep {
  readonly label: string;
  readonly messages: readonly (Pick<Message, 'role' | 'content' | 'tool_calls' | 'status'> & Partial<Pick<Message, 'reason' | 'usage'>>)[];
}

export interface PathMarkdownInput {
  readonly title: string;
  readonly steps: readonly MarkdownStep[];
  readonly workspace: Pick<Workspace, 'objective' | 'document' | 'preferences' | 'todos' | 'artifacts'>;
}

export function pathToMarkdown({ title, steps, workspace }: PathMarkdownInput): string {
  const out: string[] = [`# ${oneLine(title)}`, ''];
  for (const step of steps) {
    out.push(`## Step ${step.label}`, '');
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
      if (message.content.trim() !== '') out.push(message.content.trimEnd(), '');
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
  out.push('## Final workspace', '');
  out.push('### Objective', '', workspace.objective?.trim() ? oneLine(workspace.objective) : '_none_', '');
  const documentTitle = workspace.document.title.trim();
  out.push(`### Document${documentTitle === '' ? '' : `: ${oneLine(documentTitle)}`}`, '');
  out.push(workspace.document.content.trim() === '' ? '_empty_' : workspace.document.content.trimEnd(), '');
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
  return `${out.join('\n').trimEnd()}\n`;
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
