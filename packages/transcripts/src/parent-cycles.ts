// Parent cycles. Every node has at most one parent, so each cycle is found by one bounded
// walk per node (a functional graph). A cycle is cut at its earliest-written member, which
// becomes the root of every chain that reaches the cycle; buildOrderedUuidChain applies the
// same rule, so inspector summaries and rebuilt chains always agree.

/**
 * Finds every cycle in `parentId` (ids ≥ 0 are parents, negatives are roots) and cuts it in
 * place. Returns each cycle as node ids in chain order (root → leaf), starting at its
 * earliest-written member; cycles are ordered by that member.
 */
export function cutParentCycles(parentId: Int32Array): number[][] {
  const NEW = 0;
  const ON_PATH = 1;
  const DONE = 2;
  const state = new Uint8Array(parentId.length);
  const cycles: number[][] = [];
  // One path buffer for every walk: a node joins a path at most once, so n slots suffice.
  const path = new Int32Array(parentId.length);

  for (let start = 0; start < parentId.length; start++) {
    if (state[start] !== NEW) continue;
    let length = 0;
    let node = start;
    while (node >= 0 && state[node] === NEW) {
      state[node] = ON_PATH;
      path[length++] = node;
      node = parentId[node]!;
    }
    if (node >= 0 && state[node] === ON_PATH) {
      const walk = Array.from(path.subarray(0, length));
      cycles.push(cycleInChainOrder(walk.slice(walk.indexOf(node))));
    }
    for (let i = 0; i < length; i++) state[path[i]!] = DONE;
  }

  cycles.sort((a, b) => a[0]! - b[0]!);
  for (const cycle of cycles) parentId[cycle[0]!] = -1;
  return cycles;
}

/** `walk` follows parent links; returns earliest member first, then its cycle child, and so on. */
function cycleInChainOrder(walk: readonly number[]): number[] {
  let earliest = 0;
  for (let i = 1; i < walk.length; i++) if (walk[i]! < walk[earliest]!) earliest = i;
  const parentOrder = [...walk.slice(earliest), ...walk.slice(0, earliest)];
  return [parentOrder[0]!, ...parentOrder.slice(1).reverse()];
}
