// Public API of the family graph: contracts, assembly from rows, labels, layout, guide and exports.
// Test helpers live in ./testing and are deliberately not re-exported here.
export * from './contracts';
export {
  assembleFamilyGraph,
  DEFAULT_MAX_GRAPH_NODES,
  MAX_ANCESTOR_DEPTH,
  type AssembleFamilyGraphInput,
  type FamilyThreadRow,
  type TurnMetaRow,
} from './assemble';
export {
  computeThreadSuffixes,
  stepLabel,
  type SuffixGraphInput,
  type SuffixNodeInput,
  type SuffixThreadInput,
} from './labels';
