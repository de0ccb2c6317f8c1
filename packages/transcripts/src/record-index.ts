// Indexes records by uuid. docs/branching.md, "The transcript inspector's rules": the first physical record of a uuid defines its
// parent; later records of the uuid only add text fragments and conflict reports.
import { traitsOf } from './record-traits';
import { UuidTable } from './uuid-table';
import type { ChatRecord, Diagnostic } from './types';

/** Parent id of a node whose defining parent is null. */
export const NO_PARENT = -1;
/** Parent id of a node whose defining parent is not in the input. */
export const MISSING_PARENT = -2;

export interface RecordIndex {
  /** Node id → uuid; ids follow first physical occurrence, so a lower id was written earlier. */
  readonly uuids: readonly string[];
  /** Node id → index of its first (defining) record. */
  readonly firstRecord: Int32Array;
  /** Node id → index of its last physical record. */
  readonly lastRecord: Int32Array;
  /** Record index → index of the next record with the same uuid, or -1. */
  readonly nextSameUuid: Int32Array;
  /** Node id → Trait bits of its defining record. */
  readonly traits: Uint8Array;
  /** Node id → parent node id, NO_PARENT or MISSING_PARENT (cycles not yet cut). */
  readonly parentId: Int32Array;
  /** Per-uuid diagnostics in first-occurrence order. */
  readonly diagnostics: readonly Diagnostic[];
}

const UNRESOLVED = -3;

export function indexRecords(records: readonly ChatRecord[]): RecordIndex {
  const table = new UuidTable(records.length);
  const uuids = table.uuids;
  // Sized for the worst case (every uuid distinct) and trimmed below, to avoid regrowth.
  const firstRecord = new Int32Array(records.length);
  const lastRecord = new Int32Array(records.length);
  const traits = new Uint8Array(records.length);
  const parentId = new Int32Array(records.length);
  const nextSameUuid = new Int32Array(records.length).fill(-1);
  const conflicts = new Map<number, (string | null)[]>();
  // Parents already listed per conflicting uuid: a Set, so 100,000 copies of one uuid with
  // distinct parents stay linear.
  const listedParents = new Map<number, Set<string | null>>();

  let previousUuid: string | undefined;
  let previousId = -1;
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    const parent = record.parentUuid ?? null;
    const nextId = table.size;
    const id = table.idFor(record.uuid);
    if (id === nextId) {
      firstRecord[id] = index;
      lastRecord[id] = index;
      traits[id] = traitsOf(record);
      // Appends usually continue the record just written; that saves a hash lookup.
      parentId[id] = parent === null ? NO_PARENT : parent === previousUuid ? previousId : UNRESOLVED;
    } else {
      nextSameUuid[lastRecord[id]!] = index;
      lastRecord[id] = index;
      const first = records[firstRecord[id]!]!.parentUuid ?? null;
      if (parent !== first) {
        const listed = listedParents.get(id);
        if (listed === undefined) {
          conflicts.set(id, [first, parent]);
          listedParents.set(id, new Set([first, parent]));
        } else if (!listed.has(parent)) {
          listed.add(parent);
          conflicts.get(id)!.push(parent);
        }
      }
    }
    previousUuid = record.uuid;
    previousId = id;
  }

  const size = uuids.length;
  const diagnostics: Diagnostic[] = [];
  for (let id = 0; id < size; id++) {
    const parentUuids = conflicts.get(id);
    if (parentUuids !== undefined)
      diagnostics.push({ kind: 'conflicting-parent', uuid: uuids[id]!, parentUuids });
    if (parentId[id] !== UNRESOLVED) continue;
    // Only unresolved nodes go back to their record; null parents were resolved above.
    const parent = records[firstRecord[id]!]!.parentUuid;
    if (parent == null) continue;
    const known = table.get(parent);
    if (known < 0) {
      parentId[id] = MISSING_PARENT;
      diagnostics.push({ kind: 'missing-parent', childUuid: uuids[id]!, missingParentUuid: parent });
    } else {
      parentId[id] = known;
    }
  }

  return {
    uuids,
    firstRecord: firstRecord.subarray(0, size),
    lastRecord: lastRecord.subarray(0, size),
    traits: traits.subarray(0, size),
    nextSameUuid,
    parentId: parentId.subarray(0, size),
    diagnostics,
  };
}
