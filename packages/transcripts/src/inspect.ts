// The read-only topology inspector (docs/branching.md, "The transcript inspector's rules").
// It reports every semantic leaf with a local, deterministic summary and honest diagnostics;
// it never decides which branch is active. Linear in the number of records: every pass is a
// single sweep over the parent forest, and every walk is bounded.
import { buildForest } from './forest';
import { findSemanticLeaves } from './leaves';
import { CappedList, resolveLimits, tooManyLeaves, type TranscriptLimits, type WithinLimits } from './limits';
import { cutParentCycles } from './parent-cycles';
import { indexRecords } from './record-index';
import { summarizeBranches } from './summary';
import type { ChatRecord, Diagnostic, InspectionResult } from './types';

export function inspectConversationBranches(records: readonly ChatRecord[]): InspectionResult {
  const inspected = inspect(records, Number.POSITIVE_INFINITY);
  if (!inspected.ok) throw new Error('unreachable: no leaf limit');
  return inspected.value;
}

export interface LimitedInspectionResult extends InspectionResult {
  /** Every diagnostic, listed or not (`diagnostics` holds the first `maxListedDiagnostics`). */
  diagnosticCount: number;
}

/**
 * The inspection, refused with `too-many-leaves` before any summary is built when the records
 * hold more leaves than `limits.maxLeaves`.
 */
export function inspectConversationBranchesWithinLimits(
  records: readonly ChatRecord[],
  limits?: Partial<TranscriptLimits>,
): WithinLimits<LimitedInspectionResult> {
  const { maxLeaves, maxListedDiagnostics } = resolveLimits(limits);
  const inspected = inspect(records, maxLeaves);
  if (!inspected.ok) return inspected;
  const listed = new CappedList<Diagnostic>(maxListedDiagnostics);
  for (const diagnostic of inspected.value.diagnostics) listed.push(diagnostic);
  return {
    ok: true,
    value: { branches: inspected.value.branches, diagnostics: listed.items, diagnosticCount: listed.count },
  };
}

function inspect(records: readonly ChatRecord[], maxLeaves: number): WithinLimits<InspectionResult> {
  const index = indexRecords(records);
  const parent = new Int32Array(index.parentId.length);
  for (let node = 0; node < parent.length; node++) parent[node] = Math.max(index.parentId[node]!, -1);
  const cycles = cutParentCycles(parent);
  const forest = buildForest(parent);
  const leaves = findSemanticLeaves(index, forest, cycles);
  if (leaves.length > maxLeaves) return { ok: false, error: tooManyLeaves(maxLeaves, leaves.length) };
  const diagnostics: Diagnostic[] = [
    ...index.diagnostics,
    ...cycles.map((cycle): Diagnostic => ({
      kind: 'parent-cycle',
      uuids: cycle.map((node) => index.uuids[node]!),
    })),
  ];
  return { ok: true, value: { branches: summarizeBranches(records, index, forest, leaves), diagnostics } };
}
