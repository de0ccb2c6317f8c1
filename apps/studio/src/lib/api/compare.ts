import { CompareSchema, StepChangesSchema, type Comparison, type StepChanges } from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const compareApi = {
  /** The workspace after step `a` against the workspace after step `b` (node ids "{thread_id}:{turn}"). */
  compare(threadId: string, a: string, b: string, signal?: AbortSignal): Promise<Comparison> {
    const query = new URLSearchParams({ a, b });
    return apiJson(CompareSchema, `${apiPaths.conversation(threadId)}/compare?${query}`, { signal });
  },
  /** What changed at step k of the thread's path, and what was discarded there. */
  changes(threadId: string, turn: number, signal?: AbortSignal): Promise<StepChanges> {
    return apiJson(StepChangesSchema, `${apiPaths.conversation(threadId)}/turns/${turn}/changes`, { signal });
  },
};

/** The studio's deep link to a compare view; `into` opens it to apply the other side's items onto that side. */
export function compareHref(threadId: string, a: string, b: string, into?: 'a' | 'b'): string {
  return `/c/${encodeURIComponent(threadId)}/compare?${new URLSearchParams({ a, b, ...(into ? { into } : {}) })}`;
}

/** "Continue from": the studio link that restores step `turn` of a node's thread ("{thread_id}:{turn}"). */
export function stepHref(nodeId: string): string {
  const at = nodeId.lastIndexOf(':');
  return `/c/${encodeURIComponent(nodeId.slice(0, at))}?step=${nodeId.slice(at + 1)}`;
}

/** The studio link that opens the path a node is on ("{thread_id}:{turn}"). */
export function pathHref(nodeId: string): string {
  return `/c/${encodeURIComponent(nodeId.slice(0, nodeId.lastIndexOf(':')))}`;
}
