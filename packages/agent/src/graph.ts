// Wiring only: START → chat → (tools → chat)* → END. The chat node says where the run goes next
// (a Command: tools when its reply calls any, else the end) instead of a conditional edge, which would
// run a router of its own, with its own run tree and task, after every model call.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { END, START, StateGraph } from '@langchain/langgraph';
import { CHAT_NODE, createChatNode, TOOLS_NODE, type ChatNodeOptions } from './nodes/chat';
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
    .addNode(CHAT_NODE, createChatNode(options.model, options.chat), { ends: [TOOLS_NODE, END] })
    .addNode(TOOLS_NODE, toolsNode)
    .addEdge(START, CHAT_NODE)
    .addEdge(TOOLS_NODE, CHAT_NODE)
    .compile({ checkpointer: options.checkpointer });
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
