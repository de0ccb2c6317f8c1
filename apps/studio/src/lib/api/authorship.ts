import { AuthorshipSchema, type Authorship } from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const authorshipApi = {
  /**
   * Who wrote the document: the live one, or (`turn`) the document after that step. `changesAfter`:
   * only the named changes past that seq (the caller keeps the details of the earlier ones).
   */
  get(
    threadId: string,
    turn: number | null,
    signal?: AbortSignal,
    changesAfter?: number,
  ): Promise<Authorship> {
    const params = new URLSearchParams();
    if (turn !== null) params.set('turn', String(turn));
    if (changesAfter !== undefined) params.set('changes_after', String(changesAfter));
    const query = params.size > 0 ? `?${params}` : '';
    return apiJson(AuthorshipSchema, `${apiPaths.conversation(threadId)}/authorship${query}`, { signal });
  },
  /** The authorship report of the displayed path's final document, as a Markdown download link. */
  reportHref(threadId: string): string {
    return `${apiPaths.conversation(threadId)}/export?format=authorship`;
  },
};
