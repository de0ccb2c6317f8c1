// The agent's only window on the workspace. The services layer implements it
// against Postgres; tests use an in-memory fake. Every method acts on the live
// workspace of the thread whose turn is running (docs/architecture.md, "The two stores and their clock":
// tools change the live rows, never a snapshot).

export interface WorkspaceView {
  objective: string | null;
  document: { title: string; content: string };
  preferences: { id: string; text: string; locked: boolean }[];
  todos: { id: string; text: string; done: boolean; depth: number }[];
  artifacts: { id: string; number: number; turn_index: number; kind: string; title: string }[];
}

/**
 * Implemented by the services layer against Postgres; every method acts on the
 * live workspace of the turn's thread. Throw {@link ToolRefusal} for a refused
 * action (e.g. a locked preference): the tool answers the model with that
 * error message instead of failing the run. Any other error fails the run.
 */
export interface WorkspacePort {
  read(): Promise<WorkspaceView>;
  setObjective(text: string): Promise<void>;
  replaceDocument(input: { content: string; title?: string }): Promise<void>;
  /** Appends `text` as a new paragraph: the body's trailing newlines, a blank line, then `text` (just `text` when empty). */
  appendDocument(text: string): Promise<void>;
  /** Replaces the body of the markdown section under `heading`, appending the section when absent (the rule of `replaceMarkdownSection`). */
  replaceSection(input: { heading: string; content: string }): Promise<void>;
  addPreference(input: { text: string }): Promise<{ id: string }>;
  /** A locked preference → ToolRefusal. */
  updatePreference(input: { id: string; text: string }): Promise<void>;
  /** A locked preference → ToolRefusal. */
  removePreference(input: { id: string }): Promise<void>;
  addTodo(input: { text: string; depth: number }): Promise<{ id: string }>;
  updateTodo(input: { id: string; text?: string; depth?: number; done?: boolean }): Promise<void>;
  removeTodo(input: { id: string }): Promise<void>;
  createArtifact(input: { kind: string; title: string; content: string }): Promise<{ id: string; number: number }>;
  /**
   * The same workspace, whose writes name `toolCallId` as their author (the change log's `actor_id`).
   * Optional: a port without it records no tool call id.
   */
  forToolCall?(toolCallId: string): WorkspacePort;
}

/**
 * A workspace action the port declined (locked preference, unknown id, …).
 * The message goes back to the model verbatim as the tool's error result, so
 * keep it short and actionable.
 */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

export function isToolRefusal(error: unknown): error is ToolRefusal {
  return error instanceof ToolRefusal || (error instanceof Error && error.name === 'ToolRefusal');
}
