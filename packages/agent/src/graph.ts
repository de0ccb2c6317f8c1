// Wiring only: START → chat → (tools → chat)* → END.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { END, START, StateGraph } from '@langchain/langgraph';
import { CHAT_NODE, createChatNode, routeAfterChat, TOOLS_NODE, type ChatNodeOptions } from './nodes/chat';
import { toolsNode } from './nodes/tools';
import { createAgentState, type ContextBudget } from './state';

export function buildAgentGraph(options: {
  /** Omitted for a graph that only writes state (seeding); its chat node then refuses to run. */
  model?: BaseChatModel;
  budget: ContextBudget;
  checkpointer: BaseCheckpointSaver;
  /** The chat node's model call policy and model name. */
  chat?: ChatNodeOptions;
}) {
  return new StateGraph(createAgentState(options.budget))
    .addNode(CHAT_NODE, createChatNode(options.model, options.chat))
    .addNode(TOOLS_NODE, toolsNode)
    .addEdge(START, CHAT_NODE)
    .addConditionalEdges(CHAT_NODE, routeAfterChat, [TOOLS_NODE, END])
    .addEdge(TOOLS_NODE, CHAT_NODE)
    .compile({ checkpointer: options.checkpointer });
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
