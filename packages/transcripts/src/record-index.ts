// Indexes records by uuid. Issue 7 §2: the first physical record of a uuid defines its
// parent; later records of the uuid only add text fragments and conflict reports.
import type { ChatRecord, Diagnostic } from './types';

/** Parent id of a node whose defining parent is null. */
export const NO_PARENT = -1;
/** Parent id of a node whose defining parent is not in the input. */
export const MISSING_PARENT = -2;

export interface RecordIndex {
  /** Node id → uuid; ids follow first physical occurrence, so a lower id was written earlier. */
  readonly uuids: readonly string[];
  readonly idOf: ReadonlyMap<string, number>;
  /** Node id → index of its first (defining) record. */
  readonly firstRecord: Int32Array;
  /** Node id → index of its last physical record. */
  readonly lastRecord: Int32Array;
  /** Record index → index of the next record with the same uuid, or -1. */
  readonly nextSameUuid: Int32Array;
  /** Node id → parent node id, NO_PARENT or MISSING_PARENT (cycles not yet cut). */
  readonly parentId: Int32Array;
  /** Per-uuid diagnostics in first-occurrence order. */
  readonly diagnostics: readonly Diagnostic[];
}

export function indexRecords(records: readonly ChatRecord[]): RecordIndex {
  const idOf = new Map<string, number>();
  const uuids: string[] = [];
  const definingParent: (string | null)[] = [];
  const firstRecord: number[] = [];
  const lastRecord: number[] = [];
  const nextSameUuid = new Int32Array(records.length).fill(-1);
  const conflicts = new Map<number, (string | null)[]>();

  records.forEach((record, index) => {
    const parent = record.parentUuid ?? null;
    const known = idOf.get(record.uuid);
    if (known === undefined) {
      idOf.set(record.uuid, uuids.length);
      uuids.push(record.uuid);
      definingParent.push(parent);
      firstRecord.push(index);
      lastRecord.push(index);
      return;
    }
    nextSameUuid[lastRecord[known]!] = index;
    lastRecord[known] = index;
    const first = definingParent[known]!;
    if (parent === first) return;
    const seen = conflicts.get(known);
    if (seen === undefined) conflicts.set(known, [first, parent]);
    else if (!seen.includes(parent)) seen.push(parent);
  });

  const parentId = new Int32Array(uuids.length);
  const diagnostics: Diagnostic[] = [];
  for (let id = 0; id < uuids.length; id++) {
    const uuid = uuids[id]!;
    const parent = definingParent[id]!;
    const parentUuids = conflicts.get(id);
    if (parentUuids !== undefined) diagnostics.push({ kind: 'conflicting-parent', uuid, parentUuids });
    if (parent === null) {
      parentId[id] = NO_PARENT;
      continue;
    }
    const known = idOf.get(parent);
    if (known === undefined) {
      parentId[id] = MISSING_PARENT;
      diagnostics.push({ kind: 'missing-parent', childUuid: uuid, missingParentUuid: parent });
    } else {
      parentId[id] = known;
    }
  }

  return {
    uuids,
    idOf,
    firstRecord: Int32Array.from(firstRecord),
    lastRecord: Int32Array.from(lastRecord),
    nextSameUuid,
    parentId,
    diagnostics,
  };
}
