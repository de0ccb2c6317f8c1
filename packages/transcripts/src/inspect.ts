// The read-only topology inspector (issue 7; seed 000 "conversation-branch-inspection").
// It reports every semantic leaf with a local, deterministic summary and honest diagnostics;
// it never decides which branch is active. Linear in the number of records: every pass is a
// single sweep over the parent forest, and every walk is bounded.
import { buildForest } from './forest';
import { findSemanticLeaves } from './leaves';
import { cutParentCycles } from './parent-cycles';
import { indexRecords } from './record-index';
import { summarizeBranches } from './summary';
import type { ChatRecord, Diagnostic, InspectionResult } from './types';

export function inspectConversationBranches(records: readonly ChatRecord[]): InspectionResult {
  const index = indexRecords(records);
  const parent = new Int32Array(index.parentId.length);
  for (let node = 0; node < parent.length; node++) parent[node] = Math.max(index.parentId[node]!, -1);
  const cycles = cutParentCycles(parent);
  const forest = buildForest(parent);
  const leaves = findSemanticLeaves(index, forest);
  const diagnostics: Diagnostic[] = [
    ...index.diagnostics,
    ...cycles.map((cycle): Diagnostic => ({
      kind: 'parent-cycle',
      uuids: cycle.map((node) => index.uuids[node]!),
    })),
  ];
  return { branches: summarizeBranches(records, index, forest, leaves), diagnostics };
}
