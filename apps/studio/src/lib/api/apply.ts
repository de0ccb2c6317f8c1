import {
  ApplyDryRunSchema,
  ApplyResultSchema,
  UndoApplyResultSchema,
  type UndoApplyResult,
  type ApplyDryRun,
  type ApplyItem,
  type ApplyResult,
} from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

/** What to bring onto a target path: items of the source step (a node id "{thread_id}:{turn}"). */
export interface ApplyInput {
  source: string;
  items: readonly ApplyItem[];
  note?: string;
}

const applyPath = (targetThreadId: string) => `${apiPaths.conversation(targetThreadId)}/apply`;

export const applyApi = {
  /** What the apply would change on the target (target now → target after); writes nothing. */
  dryRun(targetThreadId: string, input: ApplyInput, signal?: AbortSignal): Promise<ApplyDryRun> {
    return apiJson(ApplyDryRunSchema, applyPath(targetThreadId), {
      method: 'POST',
      body: { ...input, dry_run: true },
      signal,
    });
  },
  /** Applies the items as one new turn on the target path. */
  apply(targetThreadId: string, input: ApplyInput): Promise<ApplyResult> {
    return apiJson(ApplyResultSchema, applyPath(targetThreadId), { method: 'POST', body: input });
  },
  /** Puts the items the apply at step `turn` wrote back as they were, as one new step. */
  undo(threadId: string, turn: number): Promise<UndoApplyResult> {
    return apiJson(UndoApplyResultSchema, `${applyPath(threadId)}/${turn}/undo`, { method: 'POST' });
  },
};
