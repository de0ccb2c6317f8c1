// Reader output shared by every transcript format (issue 7 §3).
import type { ChatRecord } from '../types';

export type TranscriptFormat = 'qwen-code' | 'claude-code';

/** Line numbers are 1-based physical lines of the input text. */
export type ReaderDiagnostic =
  | { kind: 'malformed-line'; line: number; message: string }
  | { kind: 'glued-objects'; line: number; count: number }
  | { kind: 'line-too-long'; line: number; length: number }
  | { kind: 'invalid-record'; line: number; reason: string }
  | { kind: 'unknown-record-type'; line: number; recordType: string }
  | { kind: 'compaction-joined'; line: number; uuid: string; logicalParentUuid: string }
  | { kind: 'compaction-parent-missing'; line: number; uuid: string; logicalParentUuid: string };

export interface TranscriptReadResult {
  /** The main conversation, in physical order; the inspector's input. */
  records: ChatRecord[];
  /** Sub-agent (sidechain) records, kept apart so they never create leaves of the main tree. */
  sidechainRecords: ChatRecord[];
  diagnostics: ReaderDiagnostic[];
}

export interface ReadOptions {
  /** Lines longer than this many characters are skipped with a diagnostic. */
  maxLineLength?: number;
}

export const DEFAULT_MAX_LINE_LENGTH = 64 * 1024 * 1024;
