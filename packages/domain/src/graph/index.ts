// Public API of the family graph: contracts, assembly from rows, labels, layout, guide and exports.
// Test helpers live in ./testing and are deliberately not re-exported here.
export * from './contracts';
export {
  assembleFamilyGraph,
  DEFAULT_MAX_GRAPH_NODES,
  familyGraphScope,
  familyThreadSuffixes,
  MAX_ANCESTOR_DEPTH,
  resolveMaxGraphNodes,
  type AssembleFamilyGraphInput,
  type FamilyGraphScope,
  type FamilyThreadRow,
  type LabelTurnRow,
  type TurnMetaRow,
} from './assemble';
export {
  computeThreadSuffixes,
  stepLabel,
  type SuffixGraphInput,
  type SuffixNodeInput,
  type SuffixThreadInput,
} from './labels';
export {
  buildFlowGraph,
  stubNodeId,
  type CommitFlowNode,
  type CommitFlowNodeData,
  type FlowEdge,
  type FlowEdgeData,
  type FlowGraph,
  type FlowGraphOptions,
  type FlowNode,
  type StubFlowNode,
  type StubFlowNodeData,
} from './flow';
export { activePathGuide, type PathAlternative, type PathGuideOptions, type PathGuideStep } from './guide';
export {
  escapeMermaidText,
  escapeXml,
  exportFamilyGraph,
  GRAPH_EXPORT_CONTENT_TYPES,
  graphToDot,
  graphToGraphML,
  graphToMermaid,
  quoteDotId,
  quoteDotLabel,
} from './export';
export {
  replyAlternatives,
  type AlternativesGraphInput,
  type ReplyAlternatives,
  type ReplyGroup,
} from './reply-alternatives';
export { ordinalGapNotes } from './ordinal-gaps';
