// Brings a thread whose run stopped early back to an idle, well-formed state,
// so the next turn (and any provider) accepts its context:
// - an assistant message whose tool calls have no results gets them (the
//   result of each call that ran, "not run" for the others);
// - the reply cut short is kept as the assistant's last message, as the person
//   saw it;
// - a run stopped before anything was saved still records the user message.
// LangGraph saves the last completed step when a run is aborted (durability
// "exit"), leaving `next` pending; writing "as" the pending nodes clears it.
import { AIMessage, ToolMessage, type BaseMessage, type HumanMessage } from '@langchain/core/messages';
import type { AgentGraph } from './graph';
import { CHAT_NODE, TOOLS_NODE } from './nodes/chat';
import type { ToolEventPayload } from './nodes/stream-payloads';
import type { TurnCollector } from './turn-collector';

const NOT_RUN = 'Not run: the turn was interrupted.';

export async function settleThread(
  graph: AgentGraph,
  threadId: string,
  turn?: { human: HumanMessage; collector: TurnCollector; ran: readonly ToolEventPayload[] },
): Promise<void> {
  const config = { configurable: { thread_id: threadId } };
  const snapshot = await graph.getState(config);
  const messages: BaseMessage[] = (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];
  const savedIds = new Set(messages.flatMap((m) => (m.id === undefined ? [] : [m.id])));
  const savedStep = typeof snapshot.metadata?.step === 'number' ? snapshot.metadata.step : -1;
  const partial = (turn?.collector.unsavedText(savedStep) ?? []).map((text) => new AIMessage({ content: text }));

  if (snapshot.next.length === 0) {
    // Idle: either the run completed, or it stopped before its first step was saved.
    if (turn !== undefined && turn.human.id !== undefined && !savedIds.has(turn.human.id)) {
      await graph.updateState(config, { messages: [turn.human, ...partial] }, CHAT_NODE);
    }
    return;
  }
  if (snapshot.next.includes(TOOLS_NODE)) {
    const last = messages.at(-1);
    const ran = new Map((turn?.ran ?? []).map((c) => [c.id, c]));
    const pending = AIMessage.isInstance(last)
      ? [...(last.tool_calls ?? []), ...(last.invalid_tool_calls ?? [])].map((c) => ({ id: c.id ?? '', name: c.name ?? 'unknown' }))
      : [];
    const results = pending.map(({ id, name }) => {
      const call = ran.get(id);
      return new ToolMessage({
        tool_call_id: id,
        name,
        content: call?.result ?? NOT_RUN,
        status: call !== undefined && !call.isError ? 'success' : 'error',
      });
    });
    await graph.updateState(config, { messages: results }, TOOLS_NODE);
  }
  await graph.updateState(config, { messages: partial }, CHAT_NODE);
}
