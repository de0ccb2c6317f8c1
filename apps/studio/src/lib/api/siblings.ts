import { BranchCreatedSchema, SiblingListSchema, type SiblingList, type TurnEvent } from '@trellis/domain';
import { readSse } from '../sse';
import { ApiError, apiFetch, apiJson } from './http';
import { parseTurnEvent } from './messages';
import { apiPaths } from './paths';

const EditedSchema = BranchCreatedSchema.pick({ thread_id: true });

function turnPath(threadId: string, turn: number): string {
  return `${apiPaths.conversation(threadId)}/turns/${turn}`;
}

/** Edit, regenerate and the `‹ i/n ›` list of a step (docs/branching.md, "Siblings: edit and regenerate"). */
export const siblingsApi = {
  /** The paths that diverge at step `turn` of the displayed thread, oldest first, each with where choosing it lands. */
  list(threadId: string, turn: number, signal?: AbortSignal): Promise<SiblingList> {
    return apiJson(SiblingListSchema, `${turnPath(threadId, turn)}/siblings`, { signal });
  },

  /**
   * Creates the edited sibling of step `turn` (a branch at turn − 1) and returns its thread. The
   * edited text is not sent yet: the caller sends it there as an ordinary turn (docs/branching.md, "Siblings: edit and regenerate").
   */
  async edit(threadId: string, turn: number, content: string): Promise<string> {
    const created = await apiJson(EditedSchema, `${turnPath(threadId, turn)}/edit`, {
      method: 'POST',
      body: { content },
    });
    return created.thread_id;
  },

  /**
   * Another reply to step `turn` as a sibling branch: yields `branch {thread_id}` first, then the
   * new turn's events. Refusals throw ApiError before the first event, as with a send.
   */
  async *regenerate(threadId: string, turn: number, signal: AbortSignal): AsyncGenerator<TurnEvent> {
    const response = await apiFetch(`${turnPath(threadId, turn)}/regenerate`, {
      method: 'POST',
      signal,
      accept: 'text/event-stream',
    });
    if (!response.body) throw new ApiError(response.status, 'bad_response', 'The server sent no stream.');
    for await (const message of readSse(response.body)) {
      const event = parseTurnEvent(message.event, message.data);
      if (event) yield event;
    }
  },
};
