import {
  AppError,
  resolveRestoreSource,
  type LineageEntry,
  type RestoreSource,
  type WorkspaceState,
} from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import { readSnapshotState, toState } from '../workspace/snapshot-state';

export interface RestoreState {
  source: RestoreSource;
  state: WorkspaceState;
}

/**
 * The workspace after turn k of the displayed path, through THE restore rule
 * (`resolveRestoreSource`: snapshot k+1 of the thread owning turn k+1, or the live
 * rows at the tip). A missing snapshot k+1 is a 409: that state can't be rebuilt.
 */
export async function readRestoreState(db: DbOrTx, lineage: readonly LineageEntry[], k: number): Promise<RestoreState> {
  const source = resolveRestoreSource(lineage, k);
  if (source.kind === 'live') {
    return { source, state: toState(await readLiveWorkspace(db, source.thread_id, { artifactContent: false })) };
  }
  const state = await readSnapshotState(db, source.thread_id, source.turn_index);
  if (!state) {
    throw new AppError('conflict', `The workspace after turn ${k} cannot be reconstructed: snapshot ${k + 1} is missing`);
  }
  return { source, state };
}
