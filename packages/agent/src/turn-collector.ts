// Turns LangGraph stream parts into Trellis events and remembers what the
// turn produced. Every part is `custom`: the chat node's text as it streams
// (for a model that does not stream, its whole reply once) and the tools
// node's results.
import { isStatusEventPayload, isTokenEventPayload, isToolEventPayload, isUsageEventPayload } from './nodes/stream-payloads';

export type AgentEvent =
  | { type: 'token'; text: string }
  | { type: 'tool'; name: string; args: Record<string, unknown>; result: string; isError: boolean }
  /** A model call is waiting: no token for a while, or a retry after a rate limit or a failure. */
  | { type: 'status'; state: 'waiting' | 'rate_limited' | 'retrying'; retryInS?: number; retry?: number; reason?: string };

/** Tokens the provider reported over the turn's model calls. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  model: string;
}

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
  /** Summed over the turn's model calls; absent when the provider reported none. */
  usage?: TurnUsage;
}

/** Separates the text of two model calls of one turn (text, tools, more text). */
const CALL_SEPARATOR = '\n\n';

/**
 * Model calls are told apart by their graph step (`langgraph_step`), not by
 * message id: some OpenAI-compatible servers reuse one id for every response.
 */
export class TurnCollector {
  private readonly tokens: string[] = [];
  private readonly calls: TurnToolCall[] = [];
  /** Text streamed per graph step of the chat node, in order. */
  private readonly textByStep = new Map<number, string>();
  private lastStep: number | undefined;
  private readonly seenSeqs = new Set<number>();
  private usage: TurnUsage | undefined;

  *accept(mode: string, payload: unknown): Generator<AgentEvent> {
    if (mode !== 'custom') return;
    if (isTokenEventPayload(payload)) {
      const { step, text } = payload;
      if (!this.textByStep.has(step)) this.textByStep.set(step, '');
      if (text === '') return;
      if (step !== this.lastStep && this.tokens.length > 0) {
        this.tokens.push(CALL_SEPARATOR);
        yield { type: 'token', text: CALL_SEPARATOR };
      }
      this.lastStep = step;
      this.tokens.push(text);
      this.textByStep.set(step, (this.textByStep.get(step) ?? '') + text);
      yield { type: 'token', text };
      return;
    }
    if (isStatusEventPayload(payload)) {
      const { kind: _kind, ...status } = payload;
      yield { type: 'status', ...status };
      return;
    }
    if (isUsageEventPayload(payload)) {
      this.usage = {
        inputTokens: (this.usage?.inputTokens ?? 0) + payload.inputTokens,
        outputTokens: (this.usage?.outputTokens ?? 0) + payload.outputTokens,
        model: payload.model,
      };
      return;
    }
    if (!isToolEventPayload(payload)) return;
    const { seq, id, name, args, result, isError } = payload;
    if (seq >= 0 && this.seenSeqs.has(seq)) return;
    this.seenSeqs.add(seq);
    this.calls.push({ id, name, args, result, isError });
    yield { type: 'tool', name, args, result, isError };
  }

  /** Assistant text streamed by chat steps after `savedStep`: a reply the checkpointer never got. */
  unsavedText(savedStep: number): string[] {
    return [...this.textByStep].filter(([step, text]) => step > savedStep && text !== '').map(([, text]) => text);
  }

  result(interrupted: boolean): TurnResult {
    return { content: this.tokens.join(''), toolCalls: [...this.calls], interrupted, ...(this.usage && { usage: { ...this.usage } }) };
  }
}
