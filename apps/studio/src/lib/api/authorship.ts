import { AuthorshipSchema, type Authorship } from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const authorshipApi = {
  /** Who wrote the document: the live one, or (`turn`) the document after that step. */
  get(threadId: string, turn: number | null, signal?: AbortSignal): Promise<Authorship> {
    const query = turn === null ? '' : `?turn=${turn}`;
    return apiJson(AuthorshipSchema, `${apiPaths.conversation(threadId)}/authorship${query}`, { signal });
  },
  /** The authorship report of the displayed path's final document, as a Markdown download link. */
  reportHref(threadId: string): string {
    return `${apiPaths.conversation(threadId)}/export?format=authorship`;
  },
};
