// An in-memory WorkspacePort for tests: the same rules as the real one
// (locked preferences refuse, unknown ids refuse, sections per
// replaceMarkdownSection), plus a log of every mutating call.
import { replaceMarkdownSection } from '../markdown-section';
import { ToolRefusal, type WorkspacePort, type WorkspaceView } from '../workspace-port';

export interface InMemoryWorkspace extends WorkspacePort {
  state: WorkspaceView & { artifactContents: Record<string, string> };
  calls: { method: string; input: unknown }[];
}

export function createInMemoryWorkspace(initial: Partial<WorkspaceView> = {}, turnIndex = 1): InMemoryWorkspace {
  let nextId = 1;
  const id = (prefix: string) => `${prefix}${nextId++}`;
  const state: InMemoryWorkspace['state'] = {
    objective: initial.objective ?? null,
    document: { ...(initial.document ?? { title: '', content: '' }) },
    preferences: (initial.preferences ?? []).map((p) => ({ ...p })),
    todos: (initial.todos ?? []).map((t) => ({ ...t })),
    artifacts: (initial.artifacts ?? []).map((a) => ({ ...a })),
    artifactContents: {},
  };
  const calls: InMemoryWorkspace['calls'] = [];
  const log = (method: string, input: unknown) => calls.push({ method, input });
  const preference = (pid: string) => {
    const found = state.preferences.find((p) => p.id === pid);
    if (!found) throw new ToolRefusal(`no preference ${pid}`);
    if (found.locked) throw new ToolRefusal(`preference ${pid} is locked`);
    return found;
  };
  const todo = (tid: string) => {
    const found = state.todos.find((t) => t.id === tid);
    if (!found) throw new ToolRefusal(`no todo ${tid}`);
    return found;
  };

  return {
    state,
    calls,
    async read() {
      return structuredClone({
        objective: state.objective,
        document: state.document,
        preferences: state.preferences,
        todos: state.todos,
        artifacts: state.artifacts,
      });
    },
    async setObjective(text) {
      log('setObjective', text);
      state.objective = text;
    },
    async replaceDocument(input) {
      log('replaceDocument', input);
      state.document = { title: input.title ?? state.document.title, content: input.content };
    },
    async appendDocument(text) {
      log('appendDocument', text);
      const body = state.document.content.replace(/\n+$/, '');
      state.document.content = body === '' ? text : `${body}\n\n${text}`;
    },
    async replaceSection(input) {
      log('replaceSection', input);
      state.document.content = replaceMarkdownSection(state.document.content, input.heading, input.content);
    },
    async addPreference(input) {
      log('addPreference', input);
      const pid = id('pf');
      state.preferences.push({ id: pid, text: input.text, locked: false });
      return { id: pid };
    },
    async updatePreference(input) {
      log('updatePreference', input);
      preference(input.id).text = input.text;
    },
    async removePreference(input) {
      log('removePreference', input);
      preference(input.id);
      state.preferences = state.preferences.filter((p) => p.id !== input.id);
    },
    async addTodo(input) {
      log('addTodo', input);
      const tid = id('td');
      state.todos.push({ id: tid, text: input.text, done: false, depth: input.depth });
      return { id: tid };
    },
    async updateTodo(input) {
      log('updateTodo', input);
      Object.assign(todo(input.id), {
        ...(input.text === undefined ? {} : { text: input.text }),
        ...(input.depth === undefined ? {} : { depth: input.depth }),
        ...(input.done === undefined ? {} : { done: input.done }),
      });
    },
    async removeTodo(input) {
      log('removeTodo', input);
      todo(input.id);
      state.todos = state.todos.filter((t) => t.id !== input.id);
    },
    async createArtifact(input) {
      log('createArtifact', input);
      const aid = id('ar');
      const number = Math.max(0, ...state.artifacts.map((a) => a.number)) + 1;
      state.artifacts.push({ id: aid, number, turn_index: turnIndex, kind: input.kind, title: input.title });
      state.artifactContents[aid] = input.content;
      return { id: aid, number };
    },
  };
}
