// The agent package's public API (STYLE §8): one LangGraph graph over a
// workspace port, its checkpointer in its own schema, prefix seeding, and the
// model providers.
export {
  createAgent,
  type Agent,
  type AgentEvent,
  type CreateAgentOptions,
  type RunTurnInput,
  type TurnResult,
  type TurnToolCall,
  type TurnUsage,
} from './agent';
export { classifyProviderError, isProviderCallError, ProviderCallError } from './models/provider-errors';
export { DEFAULT_MODEL_CALL_POLICY, type ModelCallPolicy } from './nodes/model-call-policy';
export {
  checkpointBytes,
  countCheckpointThreads,
  createCheckpointer,
  DEFAULT_CHECKPOINT_SCHEMA,
  deleteCheckpointThread,
  setupCheckpointer,
  TrellisCheckpointSaver,
} from './checkpointer';
export { EventChannel } from './event-channel';
export { replaceMarkdownSection } from './markdown-section';
export { createModel, describeModel, modelSecrets, receivedByOfflineModel, type ModelConfig, type OfflineModelConfig } from './models/index';
export type { AnthropicModelConfig } from './models/anthropic';
export type { OpenAIModelConfig } from './models/openai';
export { OfflineChatModel, type OfflineChatModelOptions } from './models/offline';
export { OFFLINE_HELP, parseDirectives, type Directive } from './models/offline-directives';
export { buildSystemPrompt, LOCKED_MARK } from './prompts/system';
export { offlinePathSummary, pathSummaryPrompt, type PathSummaryStep } from './prompts/path-summary';
export { createThreadSeeder, prefixWindow, seedThread, type PrefixMessage, type ThreadSeeder } from './seed';
export { DEFAULT_MAX_MESSAGES, trimToBudget, type ContextBudget } from './state';
export { WORKSPACE_TOOLS, type ToolOutcome, type WorkspaceTool } from './tools/index';
export type { PathsPort } from './tools/read-path';
export { isToolRefusal, ToolRefusal, type WorkspacePort, type WorkspaceView } from './workspace-port';
export type { TurnCondition } from './nodes/context';
