// Seeding a branch's checkpointer thread with its transcript prefix (branching
// issue, part 2): one state update, no model call. Written "as the chat node"
// so the thread looks idle (no pending next node) and the next run simply
// appends. Safe to repeat: the thread is cleared first.
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { deleteCheckpointThread } from './checkpointer';
import { buildAgentGraph } from './graph';
import { CHAT_NODE } from './nodes/chat';
import { resolveBudget, type ContextBudget } from './state';

export interface PrefixMessage {
  /** `system`: an entry the studio wrote (an apply); it is no model turn and never reaches the model. */
  role: 'user' | 'assistant' | 'system';
  content: string;
}

/**
 * The model's view of a transcript prefix. A `system` entry is left out: the thread it was written
 * on never fed it to its model either (its effect is in the workspace the agent reads each turn), so
 * a branch's agent sees what the original's saw.
 */
export function toContextMessages(prefix: readonly PrefixMessage[]): BaseMessage[] {
  return prefix.flatMap((m) =>
    m.role === 'system' ? [] : [m.role === 'user' ? new HumanMessage(m.content) : new AIMessage(m.content)],
  );
}

/**
 * The part of a prefix the budget keeps — the same window {@link trimToBudget}
 * keeps, computed without touching older messages.
 */
export function prefixWindow(prefix: readonly PrefixMessage[], maxMessages: number): PrefixMessage[] {
  if (prefix.length <= maxMessages) return [...prefix];
  const tail = prefix.slice(-maxMessages);
  const firstUser = tail.findIndex((m) => m.role === 'user');
  return firstUser === -1 ? tail : tail.slice(firstUser);
}

/**
 * Replaces the thread's working context with the (budget-trimmed) prefix.
 * Only the last `maxMessages` messages can survive the budget, so callers may
 * pass just those; the cost then does not depend on where the branch starts.
 * An empty prefix leaves the thread empty (a branch from turn 0).
 */
export async function seedThread(options: {
  checkpointer: BaseCheckpointSaver;
  threadId: string;
  messages: PrefixMessage[];
  contextBudget?: ContextBudget;
}): Promise<void> {
  await createThreadSeeder(options)(options.threadId, options.messages);
}

export type ThreadSeeder = (threadId: string, messages: readonly PrefixMessage[], options?: { fresh?: boolean }) => Promise<void>;

/**
 * {@link seedThread} for many threads: the state-writing graph is compiled once. `fresh` says
 * the thread id was just minted, so there is nothing to clear first (one round trip less).
 */
export function createThreadSeeder(options: { checkpointer: BaseCheckpointSaver; contextBudget?: ContextBudget }): ThreadSeeder {
  const budget = resolveBudget(options.contextBudget);
  let graph: ReturnType<typeof buildAgentGraph> | undefined;
  return async (threadId, messages, { fresh = false } = {}) => {
    if (!fresh) await deleteCheckpointThread(options.checkpointer, threadId);
    const window = toContextMessages(prefixWindow(messages.filter((m) => m.role !== 'system'), budget.maxMessages));
    if (window.length === 0) return;
    graph ??= buildAgentGraph({ budget, checkpointer: options.checkpointer });
    await graph.updateState({ configurable: { thread_id: threadId } }, { messages: window }, CHAT_NODE);
  };
}
