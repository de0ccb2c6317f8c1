// Public entry of @trellis/transcripts: pure, no I/O, no dependencies (docs/branching.md, "The transcript inspector's rules").
export { inspectConversationBranches, inspectConversationBranchesWithinLimits } from './inspect';
export type { LimitedInspectionResult } from './inspect';
export { buildOrderedUuidChain } from './chain';
export type { ChatRecord, BranchSummary, Diagnostic, InspectionResult } from './types';

export { parseQwenJsonl } from './readers/qwen';
export { parseClaudeCodeJsonl } from './readers/claude-code';
export {
  detectTranscriptFormat,
  parseTranscriptJsonl,
  parseTranscriptJsonlWithinLimits,
} from './readers/transcript';
export type { LimitedReadOptions, ParsedTranscript } from './readers/transcript';
export type {
  CompactionMark,
  ReaderDiagnostic,
  TranscriptFormat,
  TranscriptReadResult,
} from './readers/types';

export {
  DEFAULT_TRANSCRIPT_LIMITS,
  MAX_LISTED_TRANSCRIPT_DIAGNOSTICS,
  MAX_NESTING_DEPTH,
  MAX_TRANSCRIPT_LEAVES,
  MAX_TRANSCRIPT_RECORDS,
} from './limits';
export type {
  TranscriptLimitError,
  TranscriptLimitErrorKind,
  TranscriptLimits,
  WithinLimits,
} from './limits';

export { RecordSubtype, commandOutputOf, slashCommandOf, transcriptRecordKind } from './record-kind';
export type { CommandOutputPayload, SlashCommand, TranscriptRecordKind } from './record-kind';

export { assembleProject } from './project/assemble-project';
export type {
  AssembledProject,
  ProjectDiagnostic,
  ProjectEntry,
  ProjectSession,
  SubagentRun,
} from './project/assemble-project';
