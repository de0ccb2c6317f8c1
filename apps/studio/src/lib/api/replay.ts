import { ReplaySchema, type Replay } from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const replayApi = {
  /** The workspace right after change `seq` of the path, the change and what it did (read only). */
  get(threadId: string, seq: number, signal?: AbortSignal): Promise<Replay> {
    return apiJson(ReplaySchema, `${apiPaths.conversation(threadId)}/replay?seq=${seq}`, { signal });
  },
};
