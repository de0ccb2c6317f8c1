// Public entry of @trellis/transcripts: pure, no I/O, no dependencies (issue 7 §1, §3).
export { inspectConversationBranches } from './inspect';
export { buildOrderedUuidChain } from './chain';
export type { ChatRecord, BranchSummary, Diagnostic } from './types';

export { parseQwenJsonl } from './readers/qwen';
export { parseClaudeCodeJsonl } from './readers/claude-code';
export { detectTranscriptFormat, parseTranscriptJsonl } from './readers/transcript';
export type { ReaderDiagnostic, TranscriptFormat, TranscriptReadResult } from './readers/types';
