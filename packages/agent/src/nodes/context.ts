// What a run carries besides its state: the workspace port of the thread whose
// turn is running, and the run's tool journal. Both travel in LangGraph's
// run-scoped `context` (not in `configurable`, whose primitive values are
// copied into checkpoint metadata).
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { WorkspacePort } from '../workspace-port';
import type { PathsPort } from '../tools/read-path';
import { ToolJournal } from './tool-journal';

export interface AgentRunContext {
  workspace: WorkspacePort;
  journal?: ToolJournal;
  /** Set only on a turn whose message references other paths: what `read_path` reads through. */
  paths?: PathsPort;
  condition?: TurnCondition;
}

/**
 * What a study's condition changes in a turn: instructions added to the system prompt, the tools
 * the agent keeps (null: all), and the model that answers. Applied on every model call and tool call of the run.
 */
export interface TurnCondition {
  systemPrompt?: string | null | undefined;
  tools?: readonly string[] | null | undefined;
  /** The model the condition names: one of the agent's alternates, else the configured model. */
  model?: string | null | undefined;
}

export function conditionOf(config: AgentRunConfig): TurnCondition | undefined {
  const condition: unknown = config.context?.condition;
  return typeof condition === 'object' && condition !== null ? condition : undefined;
}

export type AgentRunConfig = LangGraphRunnableConfig<Record<string, unknown>>;

export function workspaceOf(config: AgentRunConfig): WorkspacePort {
  const workspace: unknown = config.context?.workspace;
  if (typeof workspace !== 'object' || workspace === null || typeof (workspace as { read?: unknown }).read !== 'function') {
    throw new Error('agent run is missing its workspace port (pass it as context.workspace)');
  }
  return workspace as WorkspacePort;
}

/** The turn's paths port; undefined when its message referenced no other path (no `read_path` then). */
export function pathsOf(config: AgentRunConfig): PathsPort | undefined {
  const paths: unknown = config.context?.paths;
  return typeof paths === 'object' && paths !== null && typeof (paths as { read?: unknown }).read === 'function' ? (paths as PathsPort) : undefined;
}

export function journalOf(config: AgentRunConfig): ToolJournal | undefined {
  const journal: unknown = config.context?.journal;
  return journal instanceof ToolJournal ? journal : undefined;
}
