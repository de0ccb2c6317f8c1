// The graph's state: what the checkpointer stores per thread (docs/architecture.md, "The two stores and their clock" and the
// rule "storage that follows the change, not the history").
//
// Trellis's own `messages` table is the canonical transcript; the checkpointer
// only holds the agent's working context. That context is bounded, so every
// checkpoint has a bounded size and a turn costs the same at turn 500 as at
// turn 5. The system prompt is never stored here: it is rebuilt from the live
// workspace at every model call (see nodes/chat.ts).
import type { BaseMessage } from '@langchain/core/messages';
import { Annotation, messagesStateReducer, type Messages } from '@langchain/langgraph';

/** Messages kept in the working context when the caller does not say. */
export const DEFAULT_MAX_MESSAGES = 40;

export interface ContextBudget {
  /** Upper bound on the messages kept in the `messages` channel (≥ 1). */
  maxMessages: number;
}

export function resolveBudget(budget: ContextBudget | undefined): ContextBudget {
  const maxMessages = budget?.maxMessages ?? DEFAULT_MAX_MESSAGES;
  if (!Number.isInteger(maxMessages) || maxMessages < 1) {
    throw new RangeError(`contextBudget.maxMessages must be a positive integer, got ${String(maxMessages)}`);
  }
  return { maxMessages };
}

/**
 * Keeps at most `maxMessages` of the newest messages, cut at a turn boundary.
 *
 * Invariants of the kept window:
 * - it is a suffix of `messages` no longer than `maxMessages`, unless the last turn alone is;
 * - it starts on a user message whenever the candidate window holds one, so it
 *   never opens with an orphan tool result or in the middle of a tool-call
 *   group (an assistant message with `tool_calls` and its tool results), and
 *   providers that require a user message first accept it;
 * - failing that (one turn longer than the budget: a message with more directives than the
 *   budget has messages) it starts on that turn's user message, so a turn in progress always
 *   sees what it was asked and every tool call beside its results. Cutting inside the turn left
 *   tool results only, which no provider accepts and the offline model cannot summarise; the
 *   next turn's trim brings the window back within budget.
 * - with no user message at all (a seeded prefix that opens on the assistant) it starts on
 *   the first non-tool message of the candidate window, or is empty.
 * A list within budget is returned unchanged.
 */
export function trimToBudget(messages: readonly BaseMessage[], maxMessages: number): BaseMessage[] {
  if (messages.length <= maxMessages) return [...messages];
  const from = messages.length - maxMessages;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]?.type === 'human') {
      // The newest user message: the window opens at the first user message at or after `from`,
      // or at this one when the last turn alone is longer than the budget.
      if (i < from) return messages.slice(i);
      let start = i;
      for (let j = i - 1; j >= from; j -= 1) if (messages[j]?.type === 'human') start = j;
      return messages.slice(start);
    }
  }
  for (let i = from; i < messages.length; i += 1) {
    if (messages[i]?.type !== 'tool') return messages.slice(i);
  }
  return [];
}

export function budgetedMessagesReducer(maxMessages: number) {
  return (current: BaseMessage[], update: Messages): BaseMessage[] =>
    trimToBudget(messagesStateReducer(current, update), maxMessages);
}

export function createAgentState(budget: ContextBudget) {
  return Annotation.Root({
    /**
     * The agent's working context for this thread: the last
     * `budget.maxMessages` user, assistant and tool messages of the active path
     * (seeded from the branch prefix, then appended turn by turn).
     *
     * - Writers: the run input (the new user message), the `chat` node (one
     *   assistant message per model call), the `tools` node (one tool message
     *   per tool call), `seedThread` (the prefix, via one `updateState`).
     * - Reducer: {@link budgetedMessagesReducer} — append then trim at a turn
     *   boundary. LangGraph's stock channel stores the whole list at every
     *   checkpoint; bounding the list bounds every checkpoint blob, so
     *   per-turn storage is constant and total storage linear in turns (or
     *   constant when superseded checkpoints are pruned, see checkpointer.ts).
     * - Never contains the system prompt, and never another thread's messages.
     */
    messages: Annotation<BaseMessage[], Messages>({
      reducer: budgetedMessagesReducer(budget.maxMessages),
      default: () => [],
    }),
  });
}

export type AgentStateAnnotation = ReturnType<typeof createAgentState>;
export type AgentState = AgentStateAnnotation['State'];
export type AgentUpdate = AgentStateAnnotation['Update'];
