// The payloads the graph's nodes write to LangGraph's `custom` stream, and their guards: the chat
// node's text as it streams, the tools node's result of every executed call. TurnCollector reads
// them back; the tool journal keeps the tool payloads beside the stream.

/** The custom stream payload the tools node writes for every executed call. */
export interface ToolEventPayload {
  kind: 'trellis.tool';
  /** Position in this run's journal; identifies the call across stream and journal. */
  seq: number;
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
  isError: boolean;
}

/** The custom stream payload the chat node writes for every piece of streamed model text. */
export interface TokenEventPayload {
  kind: 'trellis.token';
  /** The graph step of the model call (`langgraph_step`): two calls of one turn are two steps. */
  step: number;
  text: string;
}

const hasKind = (value: unknown, kind: string) =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === kind;

export function isToolEventPayload(value: unknown): value is ToolEventPayload {
  return hasKind(value, 'trellis.tool');
}

export function isTokenEventPayload(value: unknown): value is TokenEventPayload {
  return hasKind(value, 'trellis.token');
}

/** The custom stream payload the chat node writes while a model call waits (a silence, a retry). */
export interface StatusEventPayload {
  kind: 'trellis.status';
  state: 'waiting' | 'rate_limited' | 'retrying';
  retryInS?: number;
  retry?: number;
  reason?: string;
}

/** The custom stream payload the chat node writes after a model call whose provider reported tokens. */
export interface UsageEventPayload {
  kind: 'trellis.usage';
  inputTokens: number;
  outputTokens: number;
  model: string;
}

export function isStatusEventPayload(value: unknown): value is StatusEventPayload {
  return hasKind(value, 'trellis.status');
}

export function isUsageEventPayload(value: unknown): value is UsageEventPayload {
  return hasKind(value, 'trellis.usage');
}
