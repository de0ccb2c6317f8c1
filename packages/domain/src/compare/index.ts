export * from './contracts';
export { compareDocuments, compareWorkspaces, summarizeComparison, type CompareState, type ComparedArtifact } from './compare';
export { forkStep } from './fork';
export { comparisonToUnifiedDiff } from './unified';
export { normalizeForDiff, readableDiff, type DiffRange } from './readable-diff';
