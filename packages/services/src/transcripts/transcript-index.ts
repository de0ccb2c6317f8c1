// One index over a transcript's records, built once per request, and the root → leaf chain of
// any leaf read from it. The chain follows `buildOrderedUuidChain`'s rules exactly (docs/branching.md, "The transcript inspector's rules":
// the first record of a uuid defines its parent; a null or missing parent ends the chain; a
// cycle is cut at its earliest-written member) — but that function indexes the whole input on
// every call, which would make a file with hundreds of leaves quadratic.
import type { ChatRecord } from '@trellis/transcripts';

export interface TranscriptIndex {
  readonly records: readonly ChatRecord[];
  /** uuid → positions of its records in physical order; the first one defines the uuid. */
  readonly positions: ReadonlyMap<string, readonly number[]>;
}

export function indexTranscript(records: readonly ChatRecord[]): TranscriptIndex {
  const positions = new Map<string, number[]>();
  records.forEach((record, position) => {
    const list = positions.get(record.uuid);
    if (list === undefined) positions.set(record.uuid, [position]);
    else list.push(position);
  });
  return { records, positions };
}

/** The defining (first) record of a uuid. */
export function definingRecord(index: TranscriptIndex, uuid: string): ChatRecord | undefined {
  const first = index.positions.get(uuid)?.[0];
  return first === undefined ? undefined : index.records[first];
}

/** Every record of a uuid that has its defining record's type, in physical order. */
export function sameTypeRecords(index: TranscriptIndex, uuid: string): ChatRecord[] {
  const positions = index.positions.get(uuid) ?? [];
  const first = positions[0] === undefined ? undefined : index.records[positions[0]];
  if (first === undefined) return [];
  return positions.map((p) => index.records[p]!).filter((record) => record.type === first.type);
}

/** Root → leaf uuids of the chain ending at `leafUuid`; empty for an unknown uuid. */
export function chainOf(index: TranscriptIndex, leafUuid: string): string[] {
  if (!index.positions.has(leafUuid)) return [];
  const path: string[] = [];
  const onPath = new Map<string, number>();
  let uuid = leafUuid;
  for (;;) {
    onPath.set(uuid, path.length);
    path.push(uuid);
    const parent = definingRecord(index, uuid)?.parentUuid ?? null;
    if (parent === null || !index.positions.has(parent)) break;
    const cycleStart = onPath.get(parent);
    if (cycleStart !== undefined) {
      path.length = earliestWritten(index, path, cycleStart) + 1;
      break;
    }
    uuid = parent;
  }
  return path.reverse();
}

function earliestWritten(index: TranscriptIndex, path: readonly string[], from: number): number {
  const firstPosition = (i: number) => index.positions.get(path[i]!)![0]!;
  let best = from;
  for (let i = from + 1; i < path.length; i++) if (firstPosition(i) < firstPosition(best)) best = i;
  return best;
}
