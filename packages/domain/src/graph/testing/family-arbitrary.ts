/**
 * Random families for property tests: a sequence of index-based operations (so fast-check shrinks them
 * to small, readable counterexamples) replayed on a {@link FamilyBuilder}. Operations that do not apply
 * (branching a thread with no valid step, deleting the root) are skipped, so every sequence is valid.
 */
import fc from 'fast-check';
import { FamilyBuilder, type FamilyBuilderOptions } from './family-builder';

export type FamilyOp =
  | { readonly kind: 'turn'; readonly thread: number }
  | { readonly kind: 'branch'; readonly thread: number; readonly step: number; readonly atTip: boolean }
  | { readonly kind: 'delete'; readonly thread: number };

export type AppliedFamilyOp =
  | { readonly kind: 'turn'; readonly threadId: string; readonly turnIndex: number }
  | { readonly kind: 'branch'; readonly threadId: string; readonly parentId: string; readonly k: number }
  | { readonly kind: 'delete'; readonly threadId: string };

export interface FamilyOpsOptions {
  readonly maxOps?: number;
  /** Include soft deletes of non-root threads. Default false. */
  readonly withDeletes?: boolean;
}

export function familyOpsArbitrary(options: FamilyOpsOptions = {}): fc.Arbitrary<FamilyOp[]> {
  const index = fc.nat({ max: 1000 });
  const turn = index.map((thread): FamilyOp => ({ kind: 'turn', thread }));
  // Half the branches open from the tip: tip continuations (and their flips) are where labels get subtle.
  const branch = fc
    .record({ thread: index, step: index, atTip: fc.boolean() })
    .map((op): FamilyOp => ({ kind: 'branch', ...op }));
  const remove = index.map((thread): FamilyOp => ({ kind: 'delete', thread }));
  const op = options.withDeletes
    ? fc.oneof(
        { arbitrary: turn, weight: 3 },
        { arbitrary: branch, weight: 2 },
        { arbitrary: remove, weight: 1 },
      )
    : fc.oneof({ arbitrary: turn, weight: 3 }, { arbitrary: branch, weight: 2 });
  // size 'max': the default size caps arrays near ten operations, too few to reach deep families.
  return fc.array(op, { maxLength: options.maxOps ?? 40, size: 'max' });
}

/** Applies one operation; returns what it did, or null when it does not apply to this family. */
export function applyFamilyOp(builder: FamilyBuilder, op: FamilyOp): AppliedFamilyOp | null {
  const ids = builder.threadIds;
  const threadId = ids[op.thread % ids.length];
  if (threadId === undefined) return null;
  switch (op.kind) {
    case 'turn':
      return { kind: 'turn', threadId, turnIndex: builder.turn(threadId) };
    case 'branch': {
      const points = builder.validBranchPoints(threadId);
      const k = op.atTip ? points[points.length - 1] : points[op.step % Math.max(points.length, 1)];
      if (k === undefined) return null;
      return { kind: 'branch', threadId: builder.branch(threadId, k), parentId: threadId, k };
    }
    case 'delete': {
      const target = ids[1 + (op.thread % Math.max(ids.length - 1, 1))];
      if (target === undefined || builder.isDeleted(target)) return null;
      builder.softDelete(target);
      return { kind: 'delete', threadId: target };
    }
  }
}

/** A root thread, then the operations in order. */
export function buildFamily(
  ops: readonly FamilyOp[],
  options: FamilyBuilderOptions = {},
): { builder: FamilyBuilder; rootId: string; applied: AppliedFamilyOp[] } {
  const builder = new FamilyBuilder(options);
  const rootId = builder.root();
  const applied: AppliedFamilyOp[] = [];
  for (const op of ops) {
    const done = applyFamilyOp(builder, op);
    if (done !== null) applied.push(done);
  }
  return { builder, rootId, applied };
}

/** A deterministic permutation (mulberry32), to feed rows in an order nobody relies on. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}
