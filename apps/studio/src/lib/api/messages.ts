import { MessageListSchema, StopTurnResultSchema, TurnEventSchema, type PathRefInput, type StopTurnResult, type MessageList, type TurnEvent } from '@trellis/domain';
import { readSse } from '../sse';
import { ApiError, apiFetch, apiJson } from './http';
import { apiPaths } from './paths';

export interface MessagePageQuery {
  beforeTurn?: number;
  limitTurns?: number;
}

export const messagesApi = {
  list(threadId: string, query: MessagePageQuery = {}, signal?: AbortSignal): Promise<MessageList> {
    const params = new URLSearchParams();
    if (query.beforeTurn !== undefined) params.set('before_turn', String(query.beforeTurn));
    if (query.limitTurns !== undefined) params.set('limit_turns', String(query.limitTurns));
    const qs = params.size > 0 ? `?${params.toString()}` : '';
    return apiJson(MessageListSchema, `${apiPaths.messages(threadId)}${qs}`, { signal });
  },

  /**
   * Sends a user message and yields the turn's events as they arrive. A 409
   * (another turn is running) and every other refusal throw ApiError before the
   * first event. Aborting `signal` only closes this page's stream: the server runs the turn to its
   * end (`stop` stops it).
   */
  async *send(threadId: string, content: string, signal: AbortSignal, refs: readonly PathRefInput[] = []): AsyncGenerator<TurnEvent> {
    const response = await apiFetch(apiPaths.messages(threadId), {
      method: 'POST',
      body: refs.length > 0 ? { content, refs } : { content },
      signal,
      accept: 'text/event-stream',
    });
    yield* turnEvents(response);
  },

  /** Turn `turn`'s events from where its reply is: the text so far, then the rest. */
  async *follow(threadId: string, turn: number, signal: AbortSignal): AsyncGenerator<TurnEvent> {
    const response = await apiFetch(apiPaths.turnStream(threadId, turn), { signal, accept: 'text/event-stream' });
    yield* turnEvents(response);
  },

  /** Stops turn `turn` wherever it runs; its reply ends `interrupted` ("you stopped this reply"). */
  stop(threadId: string, turn: number): Promise<StopTurnResult> {
    return apiJson(StopTurnResultSchema, apiPaths.turnStop(threadId, turn), { method: 'POST' });
  },

  /** Retries turn `turn` in place (its reply failed or stopped); a 409 and other refusals throw before the first event. */
  async *retry(threadId: string, turn: number, signal: AbortSignal): AsyncGenerator<TurnEvent> {
    const response = await apiFetch(`${apiPaths.conversation(threadId)}/turns/${turn}/retry`, {
      method: 'POST',
      signal,
      accept: 'text/event-stream',
    });
    yield* turnEvents(response);
  },
};

async function* turnEvents(response: Response): AsyncGenerator<TurnEvent> {
  if (!response.body) throw new ApiError(response.status, 'bad_response', 'The server sent no stream.');
  for await (const message of readSse(response.body)) {
    const event = parseTurnEvent(message.event, message.data);
    if (event) yield event;
  }
}

/** Unknown or malformed events are skipped: a newer server may send more kinds. */
export function parseTurnEvent(event: string, data: string): TurnEvent | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = TurnEventSchema.safeParse({ event, data: payload });
  return parsed.success ? parsed.data : undefined;
}
