import {
  BranchCreatedSchema,
  RestoreViewSchema,
  type BranchCreated,
  type CreateBranch,
  type RestoreView,
} from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const branchesApi = {
  /** The workspace after turn k and the transcript up to it, read-only: looking creates nothing. */
  restoreView(threadId: string, turn: number, signal?: AbortSignal): Promise<RestoreView> {
    return apiJson(RestoreViewSchema, `${apiPaths.conversation(threadId)}/turns/${turn}`, { signal });
  },
  /** Forks the thread that owns turn `from_turn` into a new thread (201). */
  create(threadId: string, input: CreateBranch): Promise<BranchCreated> {
    return apiJson(BranchCreatedSchema, `${apiPaths.conversation(threadId)}/branch`, {
      method: 'POST',
      body: input,
    });
  },
};
