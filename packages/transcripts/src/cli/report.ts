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
  /** Claude Code records folded into an earlier identical record (re-appended chains). */
  foldedDuplicateCount?: number;
  /** Replies cut by an API error and streamed again, alternatives to the reply that goes on. */
  alternativeReplies?: { uuid: string; parentUuid: string }[];
  /** Every record was a sidechain: a subagent file, read as its one conversation. */
  isSubagentFile?: boolean;
  /** Repairs: records whose parent was never written, joined to the record written before them. */
  joinedOrphans?: { line: number; uuid: string; missingParentUuid: string; joinedTo: string }[];
  /** Well-formed lines of record types the reader does not know: skipped and counted. */
  skippedRecordTypes?: { recordType: string; count: number }[];
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
    ...(transcript.foldedDuplicates !== undefined && {
      foldedDuplicateCount: transcript.foldedDuplicates.length,
    }),
    ...(transcript.alternativeReplies !== undefined && { alternativeReplies: transcript.alternativeReplies }),
    ...(transcript.isSubagentFile === true && { isSubagentFile: true }),
    ...(transcript.joinedOrphans !== undefined && { joinedOrphans: transcript.joinedOrphans }),
    ...(transcript.skippedRecordTypes !== undefined && { skippedRecordTypes: transcript.skippedRecordTypes }),
  };
}
