// Assembles one BranchSummary per semantic leaf (docs/branching.md, "The transcript inspector's rules").
import { findBranchPoints } from './branch-point';
import { createBranchTexts } from './branch-text';
import type { Forest } from './forest';
import type { SemanticLeaf } from './leaves';
import type { RecordIndex } from './record-index';
import { countChains } from './record-counts';
import { indexRewinds, relateToRewinds } from './rewind';
import type { BranchSummary, ChatRecord } from './types';

export function summarizeBranches(
  records: readonly ChatRecord[],
  index: RecordIndex,
  forest: Forest,
  leaves: readonly SemanticLeaf[],
): BranchSummary[] {
  const definingRecord = (node: number) => records[index.firstRecord[node]!]!;
  const branchPoints = findBranchPoints(
    forest,
    leaves.map((leaf) => leaf.node),
  );
  const counts = countChains(forest, index.traits);
  const rewinds = indexRewinds(forest, index.traits, index.uuids);
  const texts = createBranchTexts(records, index, forest);
  const uuidOf = (node: number) => index.uuids[node]!;

  return leaves.map(({ node, lastTerminalRecord }) => {
    const branchPoint = branchPoints[node]!;
    const rewind = relateToRewinds(forest, rewinds, index.uuids, node);
    const firstUserTextAfterBranchPoint = texts.firstPromptTextBelow(node, branchPoint);
    const lastUserText = texts.lastPromptText(node);
    const lastAssistantText = texts.lastAssistantText(node);
    return {
      leafUuid: uuidOf(node),
      branchPointUuid: branchPoint >= 0 ? uuidOf(branchPoint) : null,
      classification: rewind.classification,
      containsRewindUuids: rewind.containsRewindUuids,
      siblingRewindUuids: rewind.siblingRewindUuids,
      ...(firstUserTextAfterBranchPoint !== undefined && { firstUserTextAfterBranchPoint }),
      ...(lastUserText !== undefined && { lastUserText }),
      ...(lastAssistantText !== undefined && { lastAssistantText }),
      recordCounts: counts.countsAt(node),
      startedAt: definingRecord(forest.root[node]!).timestamp,
      updatedAt: records[lastTerminalRecord]!.timestamp,
    };
  });
}
