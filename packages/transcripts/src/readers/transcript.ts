// Format detection and dispatch for callers that accept either transcript format.
import { resolveLimits, type TranscriptLimits, type WithinLimits } from '../limits';
import { parseClaudeCodeJsonl, readClaudeCodeJsonl } from './claude-code';
import { readJsonlObjects, isJsonObject, type JsonObject } from './jsonl';
import { parseQwenJsonl, readQwenJsonl } from './qwen';
import { ReadState } from './read-state';
import type { ReadOptions, TranscriptFormat, TranscriptReadResult } from './types';

const SAMPLED_RECORDS = 50;
const CLAUDE_CODE_ONLY_TYPES: ReadonlySet<string> = new Set([
  'progress',
  'attachment',
  'summary',
  'file-history-snapshot',
  'queue-operation',
]);

/**
 * Votes over the first records: Claude Code messages hold `content` blocks and carry
 * `isSidechain`; Qwen Code messages hold `parts`. Undefined when nothing decides.
 */
export function detectTranscriptFormat(text: string): TranscriptFormat | undefined {
  let claudeCode = 0;
  let qwen = 0;
  let sampled = 0;
  for (const item of readJsonlObjects(text)) {
    if (!('value' in item)) continue;
    const vote = voteOf(item.value);
    if (vote === 'claude-code') claudeCode++;
    if (vote === 'qwen-code') qwen++;
    if (++sampled === SAMPLED_RECORDS) break;
  }
  if (claudeCode === qwen) return undefined;
  return claudeCode > qwen ? 'claude-code' : 'qwen-code';
}

function voteOf(value: JsonObject): TranscriptFormat | undefined {
  const message = isJsonObject(value.message) ? value.message : undefined;
  if (typeof value.isSidechain === 'boolean' || message?.content !== undefined) return 'claude-code';
  if (typeof value.type === 'string' && CLAUDE_CODE_ONLY_TYPES.has(value.type)) return 'claude-code';
  if (Array.isArray(message?.parts) || value.type === 'tool_result') return 'qwen-code';
  return undefined;
}

export interface ParsedTranscript extends TranscriptReadResult {
  format: TranscriptFormat;
}

/** Reads `text` as `format`, detected when absent; undecidable text is read as Qwen Code, the native model. */
export function parseTranscriptJsonl(
  text: string,
  options: ReadOptions & { format?: TranscriptFormat } = {},
): ParsedTranscript {
  const format = options.format ?? detectTranscriptFormat(text) ?? 'qwen-code';
  const result =
    format === 'claude-code' ? parseClaudeCodeJsonl(text, options) : parseQwenJsonl(text, options);
  return { format, ...result };
}

export interface LimitedReadOptions {
  format?: TranscriptFormat;
  maxLineLength?: number;
  limits?: Partial<TranscriptLimits>;
}

/**
 * `parseTranscriptJsonl` for untrusted uploads: refused (never thrown) past `maxRecords` records
 * or at the first line nested deeper than `maxNestingDepth`; diagnostics are all counted and the
 * first `maxListedDiagnostics` listed. Stops reading at the refusal.
 */
export function parseTranscriptJsonlWithinLimits(
  text: string,
  options: LimitedReadOptions = {},
): WithinLimits<ParsedTranscript> {
  const limits = resolveLimits(options.limits);
  const readOptions: ReadOptions = {
    maxNestingDepth: limits.maxNestingDepth,
    ...(options.maxLineLength !== undefined && { maxLineLength: options.maxLineLength }),
  };
  const state = new ReadState({
    maxRecords: limits.maxRecords,
    maxListedDiagnostics: limits.maxListedDiagnostics,
    refuseTooDeep: true,
    maxNestingDepth: limits.maxNestingDepth,
  });
  const format = options.format ?? detectTranscriptFormat(text) ?? 'qwen-code';
  const result =
    format === 'claude-code'
      ? readClaudeCodeJsonl(text, readOptions, state)
      : readQwenJsonl(text, readOptions, state);
  if (state.error !== undefined) return { ok: false, error: state.error };
  return { ok: true, value: { format, ...result } };
}
