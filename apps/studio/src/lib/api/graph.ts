import { FamilyGraphSchema, type FamilyGraph } from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const graphApi = {
  /** The whole family of `threadId` (`GET /api/conversations/{id}/graph`), JSON as React Flow needs it. */
  get(threadId: string, signal?: AbortSignal): Promise<FamilyGraph> {
    return apiJson(FamilyGraphSchema, `${apiPaths.conversation(threadId)}/graph`, { signal });
  },
};
