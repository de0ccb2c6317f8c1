/**
 * A reference model of what the graph endpoint's queries fetch: from the complete rows of a family,
 * the reduced row set `assembleFamilyGraph` documents — thread rows with `owned_turn_count` on the
 * visible ones, the newest `maxNodes` visible owned turns (with every row of the last one's millisecond) carrying
 * `previous_turn_index`, and the label witnesses. Property tests assert that both row sets give the
 * same graph; integration tests can hold the SQL to the same model.
 */
import {
  familyGraphScope,
  type FamilyThreadRow,
  type LabelTurnRow,
  type TurnMetaRow,
} from '../assemble';
import { toEpochMs } from '../timestamps';
import type { FamilyRows } from './family-builder';

export interface ReducedFamilyRows {
  readonly threads: FamilyThreadRow[];
  readonly turns: TurnMetaRow[];
  readonly labelTurns: LabelTurnRow[];
}

export function reduceFamilyRows(
  rows: FamilyRows,
  options: { readonly requestedThreadId: string; readonly maxNodes: number },
): ReducedFamilyRows {
  const byId = new Map(rows.threads.map((thread) => [thread.thread_id, thread]));
  const ownedOf = new Map<string, TurnMetaRow[]>();
  for (const turn of rows.turns) {
    const owner = byId.get(turn.thread_id);
    if (owner === undefined) continue;
    if (owner.branch_point_turn !== null && turn.turn_index <= owner.branch_point_turn) continue;
    ownedOf.set(turn.thread_id, [...(ownedOf.get(turn.thread_id) ?? []), turn]);
  }
  for (const list of ownedOf.values()) list.sort((a, b) => a.turn_index - b.turn_index);


  // For a child at k of P: P's first owned turn above k, and its first one above k captured before the child.
  const labelTurns: LabelTurnRow[] = [];
  for (const thread of rows.threads) {
    if (thread.parent_thread_id === null) continue;
    const k = thread.branch_point_turn ?? 0;
    const above = (ownedOf.get(thread.parent_thread_id) ?? []).filter((turn) => turn.turn_index > k);
    const createdMs = toEpochMs(thread.created_at);
    const next = above[0];
    const prior = above.find((turn) => toEpochMs(turn.captured_at) < createdMs);
    for (const turn of [next, prior]) {
      if (turn !== undefined) {
        labelTurns.push({ thread_id: turn.thread_id, turn_index: turn.turn_index, captured_at: turn.captured_at });
      }
    }
  }

  // Counts only where the graph needs them: on the threads it shows.
  const scope = familyGraphScope({ requestedThreadId: options.requestedThreadId, threads: rows.threads });
  const visibleIds = new Set(scope.visibleThreads.map((thread) => thread.thread_id));
  const threads = rows.threads.map((thread) =>
    visibleIds.has(thread.thread_id)
      ? { ...thread, owned_turn_count: ownedOf.get(thread.thread_id)?.length ?? 0 }
      : { ...thread },
  );
  const candidates = scope.visibleThreads.flatMap(({ thread_id }) =>
    (ownedOf.get(thread_id) ?? []).map((turn, index, list) => ({
      ...turn,
      previous_turn_index: list[index - 1]?.turn_index ?? null,
    })),
  );
  const newestFirst = [...candidates].sort((a, b) => toEpochMs(b.captured_at) - toEpochMs(a.captured_at));
  const last = newestFirst[options.maxNodes - 1];
  const turns =
    options.maxNodes === 0
      ? []
      : last === undefined
        ? candidates
        : candidates.filter((turn) => toEpochMs(turn.captured_at) >= toEpochMs(last.captured_at));
  return { threads, turns, labelTurns };
}
