// Test helpers for other packages' tests; deliberately not exported from the package entry.
export {
  FamilyBuilder,
  scrambledThreadId,
  type FamilyBuilderOptions,
  type FamilyRows,
} from './family-builder';
export {
  applyFamilyOp,
  buildFamily,
  familyOpsArbitrary,
  shuffled,
  type AppliedFamilyOp,
  type FamilyOp,
  type FamilyOpsOptions,
} from './family-arbitrary';
export { reduceFamilyRows, type ReducedFamilyRows } from './reduce-rows';
export { withExtraEdge } from './extra-edge';
