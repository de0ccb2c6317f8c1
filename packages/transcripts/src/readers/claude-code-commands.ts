// Claude Code's bookkeeping around slash commands and bash mode, read as what the user saw
// (docs/architecture.md, "Real transcripts"). The wrappers never reach a summary or a title:
//
//   <command-name>/x</command-name><command-message>x</command-message><command-args>a</command-args>
//                                                        → the user's prompt, shown as `/x a`
//   <bash-input>ls</bash-input>                          → the user's prompt, shown as `! ls`
//   <local-command-stdout>…</local-command-stdout>, <local-command-stderr>…,
//   <bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>
//                                                        → command output, not a prompt
//
// The scan is one left-to-right pass with indexOf: an unclosed tag ends it, so hostile text
// (thousands of opening tags) stays linear.

const PROMPT_TAGS = ['command-name', 'command-message', 'command-args', 'bash-input'] as const;
const OUTPUT_TAGS = ['local-command-stdout', 'local-command-stderr', 'bash-stdout', 'bash-stderr'] as const;
const TAGS: readonly string[] = [...PROMPT_TAGS, ...OUTPUT_TAGS];

type Tag = (typeof PROMPT_TAGS)[number] | (typeof OUTPUT_TAGS)[number];

export interface CommandOutput {
  stdout: string;
  stderr: string;
}

export type CommandText =
  | { kind: 'prompt'; displayText: string; command: { name: string; args: string } }
  | { kind: 'output'; displayText: string; output: CommandOutput };

/** Undefined when the text holds no command wrapper. */
export function readCommandText(text: string): CommandText | undefined {
  const tags = new Map<Tag, string>();
  let plain = '';
  let position = 0;
  while (position < text.length) {
    const open = text.indexOf('<', position);
    if (open === -1) break;
    const tag = tagAt(text, open);
    if (tag === undefined) {
      plain += text.slice(position, open + 1);
      position = open + 1;
      continue;
    }
    const valueStart = open + tag.length + 2;
    const close = text.indexOf(`</${tag}>`, valueStart);
    if (close === -1) break;
    plain += text.slice(position, open);
    tags.set(tag, (tags.get(tag) ?? '') + text.slice(valueStart, close));
    position = close + tag.length + 3;
  }
  if (tags.size === 0) return undefined;
  plain = (plain + text.slice(position)).trim();

  const hasOutput = OUTPUT_TAGS.some((tag) => tags.has(tag));
  const hasPrompt = PROMPT_TAGS.some((tag) => tags.has(tag));
  if (hasOutput && !hasPrompt) {
    const stdout = stripAnsi(joinDefined(tags.get('local-command-stdout'), tags.get('bash-stdout'))).trim();
    const stderr = stripAnsi(joinDefined(tags.get('local-command-stderr'), tags.get('bash-stderr'))).trim();
    const displayText = [stdout, stderr, plain].filter((part) => part !== '').join('\n');
    return { kind: 'output', displayText, output: { stdout, stderr } };
  }

  const bash = tags.get('bash-input')?.trim();
  const name = (tags.get('command-name') ?? '').trim();
  const message = (tags.get('command-message') ?? '').trim();
  const args = (tags.get('command-args') ?? '').trim();
  const commandName =
    bash !== undefined && name === ''
      ? '!'
      : name !== ''
        ? name
        : message === ''
          ? ''
          : `/${message.split(/\s/)[0]}`;
  const commandArgs = bash !== undefined && name === '' ? bash : args;
  const displayText = [commandName, commandArgs, plain].filter((part) => part !== '').join(' ');
  return { kind: 'prompt', displayText, command: { name: commandName, args: commandArgs } };
}

function tagAt(text: string, open: number): Tag | undefined {
  for (const tag of TAGS) {
    if (text.startsWith(tag, open + 1) && text.charCodeAt(open + 1 + tag.length) === 0x3e) return tag as Tag;
  }
  return undefined;
}

function joinDefined(...values: (string | undefined)[]): string {
  return values.filter((value) => value !== undefined).join('\n');
}

const ESCAPE = 0x1b;

/** Terminal colour codes (`ESC [ … letter`) that Claude Code keeps in captured command output. */
function stripAnsi(text: string): string {
  if (!text.includes(String.fromCharCode(ESCAPE))) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== ESCAPE || text[i + 1] !== '[') {
      out += text[i];
      continue;
    }
    let end = i + 2;
    while (end < text.length && /[0-9;?]/.test(text[end]!)) end++;
    i = end < text.length && /[A-Za-z]/.test(text[end]!) ? end : end - 1;
  }
  return out;
}

const INTERRUPTIONS: ReadonlySet<string> = new Set([
  '[Request interrupted by user]',
  '[Request interrupted by user for tool use]',
]);

/** Claude Code's own note that the user pressed Esc; shown as a marker, never a prompt. */
export function isInterruptionText(text: string): boolean {
  return INTERRUPTIONS.has(text.trim());
}
