// Selected-branch reconstruction (docs/branching.md, "The transcript inspector's rules"): walk parent links from one leaf to its root.
import type { BuildChainOptions, ChatRecord, ChainGap, OrderedUuidChain } from './types';

/**
 * Root → leaf uuids of the chain ending at `leafUuid` (default: the last physical record).
 * The first record of a uuid defines its parent. The walk stops at a null parent, at a parent
 * missing from the input (reported in `gaps` only with `detectGaps`; islands are never
 * stitched together), or on a cycle, which is cut at its earliest-written member exactly as
 * the inspector cuts it. An unknown leaf gives an empty chain.
 */
export function buildOrderedUuidChain(
  records: readonly ChatRecord[],
  options: BuildChainOptions = {},
): OrderedUuidChain {
  const leafUuid = options.leafUuid ?? records.at(-1)?.uuid;
  if (leafUuid === undefined) return { uuids: [], gaps: [] };

  const firstIndex = new Map<string, number>();
  records.forEach((record, index) => {
    if (!firstIndex.has(record.uuid)) firstIndex.set(record.uuid, index);
  });
  if (!firstIndex.has(leafUuid)) return { uuids: [], gaps: [] };

  const path: string[] = [];
  const pathIndex = new Map<string, number>();
  const gaps: ChainGap[] = [];
  let uuid = leafUuid;
  for (;;) {
    pathIndex.set(uuid, path.length);
    path.push(uuid);
    const parent = records[firstIndex.get(uuid)!]!.parentUuid ?? null;
    if (parent === null) break;
    if (!firstIndex.has(parent)) {
      if (options.detectGaps === true) gaps.push({ childUuid: uuid, missingParentUuid: parent });
      break;
    }
    const cycleStart = pathIndex.get(parent);
    if (cycleStart !== undefined) {
      path.length = earliestWrittenIndex(path, cycleStart, firstIndex) + 1;
      break;
    }
    uuid = parent;
  }
  return { uuids: path.reverse(), gaps };
}

function earliestWrittenIndex(
  path: readonly string[],
  from: number,
  firstIndex: ReadonlyMap<string, number>,
) {
  let best = from;
  for (let i = from + 1; i < path.length; i++) {
    if (firstIndex.get(path[i]!)! < firstIndex.get(path[best]!)!) best = i;
  }
  return best;
}
