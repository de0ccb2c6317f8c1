// Reader output shared by every transcript format.
import type { ChatRecord } from '../types';

export type TranscriptFormat = 'qwen-code' | 'claude-code';

/** Line numbers are 1-based physical lines of the input text. */
export type ReaderDiagnostic =
  | { kind: 'malformed-line'; line: number; message: string }
  | { kind: 'glued-objects'; line: number; count: number }
  | { kind: 'line-too-long'; line: number; length: number }
  | { kind: 'invalid-record'; line: number; reason: string }
  | { kind: 'unknown-record-type'; line: number; recordType: string };

/**
 * A compaction the reader recognised (Claude Code `compact_boundary`, Qwen Code
 * `chat_compression`). Handled, so never a diagnostic: the importer shows a divider there.
 */
export interface CompactionMark {
  line: number;
  uuid: string;
  /** The record the compacted history continues, when the file names one. */
  logicalParentUuid?: string;
  /** True when the boundary was attached below `logicalParentUuid`, which is in the file. */
  joined: boolean;
  trigger?: string;
  preTokens?: number;
}

export interface TranscriptReadResult {
  /** The main conversation, in physical order; the inspector's input. */
  records: ChatRecord[];
  /** Sub-agent (sidechain) records, kept apart so they never create leaves of the main tree. */
  sidechainRecords: ChatRecord[];
  /** In line order; only the first `maxListedDiagnostics` when reading within limits. */
  diagnostics: ReaderDiagnostic[];
  /** Every diagnostic, listed or not. */
  diagnosticCount: number;
  compactions: CompactionMark[];
  /** Claude Code records repeating an earlier record (same content and timestamp) under a new uuid. */
  foldedDuplicates?: { uuid: string; sameAs: string }[];
  /** Replies cut by an API error and streamed again: alternatives to the reply that goes on. */
  alternativeReplies?: { uuid: string; parentUuid: string }[];
  /** Every record was a sidechain (a `subagents/agent-*.jsonl` file), read as the conversation. */
  isSubagentFile?: boolean;
  /**
   * Records whose parent was never written, joined to the record written just before them (a
   * repair the reader made; Claude Code only). The first record of a file keeps its missing
   * parent, which the inspector reports.
   */
  joinedOrphans?: { line: number; uuid: string; missingParentUuid: string; joinedTo: string }[];
  /** Well-formed lines of a record type the reader does not know: skipped, counted, not damage. */
  skippedRecordTypes?: { recordType: string; count: number }[];
}

export interface ReadOptions {
  /** Lines longer than this many characters are skipped with a diagnostic. */
  maxLineLength?: number;
  /**
   * Lines nested deeper than this are not parsed: a `malformed-line` diagnostic, or the
   * `nesting-too-deep` refusal when reading within limits. Default MAX_NESTING_DEPTH (256).
   */
  maxNestingDepth?: number;
}

export const DEFAULT_MAX_LINE_LENGTH = 64 * 1024 * 1024;

export interface ClaudeCodeSource {
  line: number;
  /** Claude Code's own record type (user, assistant, system, progress, attachment …). */
  type: string;
  subtype?: string;
  messageId?: string;
  isSidechain: boolean;
  /** Set when the record was re-parented (tool fan-out, compaction join, folded duplicate …). */
  originalParentUuid?: string | null;
  /** Why a record Claude Code wrote as significant reads as neutral (claude-code-long-tail.ts). */
  neutralBecause?: string;
}
