import {
  AppError,
  compareWorkspaces,
  computeThreadSuffixes,
  forkStep,
  graphNodeId,
  ownerOfTurn,
  stepLabel,
  type Comparison,
  type LineageEntry,
  type NodeRef,
} from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads } from '../graph/family-rows';
import { loadLineage, type LineageRow } from '../lineage/load-lineage';
import { readRemovedAt } from './removed-at';
import { readStepState } from './step-state';

export interface ResolvedStep {
  lineage: LineageRow[];
  turn: number;
}

/**
 * Compares the workspace after two steps of one family (docs/architecture.md, "Deciding between
 * branches"): the service loads the two states and the two lineages; the comparison is pure
 * (`compareWorkspaces` in domain). `{id}` is any thread of the family the caller owns; a node outside
 * that family is a 404. Cost follows the two states: no history is read, and the family contributes
 * only its thread rows, for the step labels.
 */
export async function compareSteps(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; a: NodeRef; b: NodeRef },
): Promise<Comparison> {
  // The family's thread rows only name the steps: they load beside the two states instead of ahead
  // of them, so a wide family stays off the path the states take. Awaited last; an earlier error
  // (ownership, an unknown node) wins and the rows are dropped unseen.
  const family = loadFamilyThreads(deps.db, input.threadId);
  family.catch(() => undefined);
  const [{ conversation }, lineageA, lineageB] = await Promise.all([
    requireThreadAccess(deps.db, actor, input.threadId, 'read'),
    loadLineage(deps.db, input.a.thread_id),
    loadLineage(deps.db, input.b.thread_id),
  ]);
  const a = resolveStep(conversation.rootThreadId, lineageA, input.a);
  const b = resolveStep(conversation.rootThreadId, lineageB, input.b);
  const [stateA, stateB] = await Promise.all([
    readStepState(deps.db, a.lineage, a.turn),
    readStepState(deps.db, b.lineage, b.turn),
  ]);
  const comparison = compareWorkspaces(stateA, stateB);
  const [removedAt, { threads, labelTurns }] = await Promise.all([
    readRemovedAt(deps.db, comparison, b),
    family,
  ]);
  const suffixes = computeThreadSuffixes({ threads, nodes: labelTurns });
  const node = (lineage: readonly LineageEntry[], turn: number) => {
    const owner = ownerOfTurn(lineage, turn);
    return { node_id: graphNodeId(owner, turn), label: stepLabel(turn, suffixes[owner] ?? '') };
  };
  const fork = forkStep(a, b);
  const removal = (item: { key: string | null; status: string }) => {
    const found = item.key === null || item.status !== 'removed' ? undefined : removedAt.get(item.key);
    return { removed_at: found ? node(b.lineage, found.turn) : null, removed_by: found?.by ?? null };
  };
  return {
    a: node(a.lineage, a.turn),
    b: node(b.lineage, b.turn),
    fork: fork && {
      node_id: graphNodeId(fork.thread_id, fork.turn),
      label: stepLabel(fork.turn, suffixes[fork.thread_id] ?? ''),
    },
    ...comparison,
    preferences: comparison.preferences.map((item) => ({ ...item, ...removal(item) })),
    todos: comparison.todos.map((item) => ({ ...item, ...removal(item) })),
  };
}

/** A node of the family: its thread exists, is visible, belongs to the family, and has reached the turn. */
export function resolveStep(rootThreadId: string, lineage: LineageRow[], ref: NodeRef): ResolvedStep {
  const displayed = lineage.at(-1);
  const nodeId = graphNodeId(ref.thread_id, ref.turn);
  if (!displayed || displayed.is_pending || displayed.is_deleted || lineage[0]!.thread_id !== rootThreadId) {
    throw AppError.notFound(`Step ${nodeId} in this family`);
  }
  if (ref.turn > displayed.turn_index) throw AppError.notFound(`Step ${nodeId}`);
  return { lineage, turn: ref.turn };
}
