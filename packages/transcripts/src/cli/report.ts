// Everything the CLI prints, computed from the transcript text alone.
import { inspectConversationBranches } from '../inspect';
import { parseTranscriptJsonl } from '../readers/transcript';
import type { CompactionMark, ReaderDiagnostic, TranscriptFormat } from '../readers/types';
import type { BranchSummary, Diagnostic } from '../types';

export interface InspectionReport {
  format: TranscriptFormat;
  recordCount: number;
  sidechainRecordCount: number;
  branches: BranchSummary[];
  diagnostics: Diagnostic[];
  readerDiagnostics: ReaderDiagnostic[];
  /** Handled, so not diagnostics: where the history was compacted. */
  compactions: CompactionMark[];
}

export function buildInspectionReport(
  text: string,
  options: { format?: TranscriptFormat } = {},
): InspectionReport {
  const transcript = parseTranscriptJsonl(text, options);
  const { branches, diagnostics } = inspectConversationBranches(transcript.records);
  return {
    format: transcript.format,
    recordCount: transcript.records.length,
    sidechainRecordCount: transcript.sidechainRecords.length,
    branches,
    diagnostics,
    readerDiagnostics: transcript.diagnostics,
    compactions: transcript.compactions,
  };
}
