// The system prompt, rebuilt from the live workspace before every model call
// and never written to the checkpointer (studio issue, part 4): the workspace
// changes between turns (manual edits) and within a turn (tools), and the
// model must always see it as it stands now.
import type { WorkspaceView } from '../workspace-port';

export const LOCKED_MARK = 'LOCKED — never change';

const INSTRUCTIONS = `You are the writing partner in Trellis, a studio where a person and you co-write one markdown document.
The workspace below is the current state: the objective, the document, the person's preferences, a nested todo list and the artifacts made so far.
Change the workspace only through the tools; tools act immediately and the person sees every change.
Rules:
- Follow the preferences. A preference marked "${LOCKED_MARK}" must never be updated or removed.
- Refer to preferences and todos by the id shown in brackets.
- Prefer replace_section or append for local edits; rewrite the whole document only when asked or when most of it changes.
- After using tools, answer in a few sentences: what you changed and why. Do not paste the whole document back.`;

function section(title: string, body: string): string {
  return `## ${title}\n${body}`;
}

export function formatPreferences(preferences: WorkspaceView['preferences']): string {
  if (preferences.length === 0) return '(none)';
  return preferences
    .map((p) => `- [${p.id}] ${oneLine(p.text)}${p.locked ? ` (${LOCKED_MARK})` : ''}`)
    .join('\n');
}

/** One line per todo, indented two spaces per depth level, `[x]` when done. */
export function formatTodos(todos: WorkspaceView['todos']): string {
  if (todos.length === 0) return '(none)';
  return todos
    .map((t) => `${'  '.repeat(Math.max(0, t.depth))}- [${t.done ? 'x' : ' '}] ${oneLine(t.text)} [${t.id}]`)
    .join('\n');
}

export function formatArtifacts(artifacts: WorkspaceView['artifacts']): string {
  if (artifacts.length === 0) return '(none)';
  return artifacts.map((a) => `- ${a.number}. ${oneLine(a.title)} (${a.kind}, turn ${a.turn_index})`).join('\n');
}

export function buildSystemPrompt(view: WorkspaceView): string {
  const objective = view.objective?.trim() ? view.objective.trim() : '(not set)';
  const title = view.document.title.trim() ? oneLine(view.document.title) : '(untitled)';
  const body = view.document.content.trim() ? view.document.content : '(empty)';
  return [
    INSTRUCTIONS,
    section('Objective', objective),
    section(`Document: ${title}`, `<document>\n${body}\n</document>`),
    section('Preferences', formatPreferences(view.preferences)),
    section('Todos', formatTodos(view.todos)),
    section('Artifacts', formatArtifacts(view.artifacts)),
  ].join('\n\n');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
