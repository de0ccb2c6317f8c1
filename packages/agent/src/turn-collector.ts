// Turns LangGraph stream parts into Trellis events and remembers what the
// turn produced. `messages` parts carry the chat node's token chunks (and,
// for a model that does not stream, its whole reply once); `custom` parts
// carry the tools node's results.
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { CHAT_NODE } from './nodes/chat';
import { isToolEventPayload } from './nodes/tool-journal';

export type AgentEvent =
  | { type: 'token'; text: string }
  | { type: 'tool'; name: string; args: Record<string, unknown>; result: string; isError: boolean };

export interface TurnToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
  isError: boolean;
}

export interface TurnResult {
  /** Exactly the concatenation of the turn's `token` events. */
  content: string;
  /** Every tool call that ran, in order, with its result. */
  toolCalls: TurnToolCall[];
  /** The signal aborted the turn; `content` and `toolCalls` hold what was produced before. */
  interrupted: boolean;
}

/** Separates the text of two model calls of one turn (text, tools, more text). */
const CALL_SEPARATOR = '\n\n';

export class TurnCollector {
  private readonly tokens: string[] = [];
  private readonly calls: TurnToolCall[] = [];
  /** Text streamed per assistant message id, in order. */
  private readonly textById = new Map<string, string>();
  private lastId: string | undefined;
  private readonly seenSeqs = new Set<number>();

  *accept(mode: string, payload: unknown): Generator<AgentEvent> {
    if (mode === 'custom') {
      if (!isToolEventPayload(payload)) return;
      const { seq, id, name, args, result, isError } = payload;
      if (seq >= 0 && this.seenSeqs.has(seq)) return;
      this.seenSeqs.add(seq);
      this.calls.push({ id, name, args, result, isError });
      yield { type: 'tool', name, args, result, isError };
      return;
    }
    if (mode !== 'messages' || !Array.isArray(payload)) return;
    const [message, metadata] = payload as [unknown, { langgraph_node?: unknown } | undefined];
    if (metadata?.langgraph_node !== CHAT_NODE || !isAssistant(message)) return;
    const id = message.id ?? '';
    // A whole message after its own chunks is the node output being echoed.
    if (!AIMessageChunk.isInstance(message) && this.textById.has(id)) return;
    const text = message.text;
    if (!this.textById.has(id)) this.textById.set(id, '');
    if (text === '') return;
    if (id !== this.lastId && this.tokens.length > 0) yield* this.emit(CALL_SEPARATOR, undefined);
    this.lastId = id;
    yield* this.emit(text, id);
  }

  private *emit(text: string, id: string | undefined): Generator<AgentEvent> {
    this.tokens.push(text);
    if (id !== undefined) this.textById.set(id, (this.textById.get(id) ?? '') + text);
    yield { type: 'token', text };
  }

  /** Assistant text streamed under ids the caller does not know (a reply cut short). */
  unsavedText(savedIds: ReadonlySet<string>): { id: string; text: string }[] {
    return [...this.textById]
      .filter(([id, text]) => text !== '' && !savedIds.has(id))
      .map(([id, text]) => ({ id, text }));
  }

  result(interrupted: boolean): TurnResult {
    return { content: this.tokens.join(''), toolCalls: [...this.calls], interrupted };
  }
}

function isAssistant(message: unknown): message is BaseMessage {
  return AIMessageChunk.isInstance(message) || AIMessage.isInstance(message);
}
