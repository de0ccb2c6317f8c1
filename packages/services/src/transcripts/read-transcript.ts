// Reading an uploaded transcript, shared by inspect and import: the limits, the reader of
// the detected format (malformed lines become line-numbered diagnostics, never a failure), the
// inspector, and each leaf read as turns.
import { AppError, MAX_LISTED_DIAGNOSTICS } from '@trellis/domain';
import {
  inspectConversationBranchesWithinLimits,
  parseTranscriptJsonlWithinLimits,
  type BranchSummary,
  type ChatRecord,
  type Diagnostic,
  type ReaderDiagnostic,
  type TranscriptFormat,
} from '@trellis/transcripts';
import type { LeafPath } from './import-plan';
import { chainOf, indexTranscript } from './transcript-index';
import { createTitleSource } from './transcript-titles';
import { turnsOf } from './transcript-turns';
import { assertWithinByteLimit, limitRefusal } from './upload-limits';

export interface TranscriptUpload {
  content: string;
  filename?: string | undefined;
}

export interface ReadTranscript {
  format: TranscriptFormat;
  records: readonly ChatRecord[];
  /** The first MAX_LISTED_DIAGNOSTICS; `readerDiagnosticCount` counts them all. */
  readerDiagnostics: ReaderDiagnostic[];
  readerDiagnosticCount: number;
  /** Well-formed lines of record types the reader does not know: skipped and counted. */
  skippedRecordTypes: { recordType: string; count: number }[];
  branches: BranchSummary[];
  /** The first MAX_LISTED_DIAGNOSTICS; `diagnosticCount` counts them all. */
  diagnostics: Diagnostic[];
  diagnosticCount: number;
  /** Aligned with `branches`. */
  leaves: LeafPath[];
}

export function readTranscript(upload: TranscriptUpload): ReadTranscript {
  assertWithinByteLimit(upload.content);
  const limits = { maxListedDiagnostics: MAX_LISTED_DIAGNOSTICS };
  const parsed = parseTranscriptJsonlWithinLimits(upload.content, { limits });
  if (!parsed.ok) throw limitRefusal(parsed.error);
  const { format, records, diagnostics: readerDiagnostics, diagnosticCount: readerDiagnosticCount, skippedRecordTypes = [] } = parsed.value;
  const inspected = inspectConversationBranchesWithinLimits(records, limits);
  if (!inspected.ok) throw limitRefusal(inspected.error);
  const { branches, diagnostics, diagnosticCount } = inspected.value;
  if (branches.length === 0) throw noLeaves(upload, records.length, readerDiagnostics, readerDiagnosticCount);
  const index = indexTranscript(records);
  const titles = createTitleSource(index, upload.content);
  const now = Date.now();
  const leaves = branches.map((branch): LeafPath => {
    const chain = chainOf(index, branch.leafUuid);
    const turns = turnsOf(index, chain, now);
    const { title, isOwn } = titles.titleOf(chain, turns);
    return { leafUuid: branch.leafUuid, turns, title, hasOwnTitle: isOwn };
  });
  return { format, records, readerDiagnostics, readerDiagnosticCount, skippedRecordTypes, branches, diagnostics, diagnosticCount, leaves };
}

function noLeaves(
  upload: TranscriptUpload,
  recordCount: number,
  readerDiagnostics: ReaderDiagnostic[],
  readerDiagnosticCount: number,
): AppError {
  const name = upload.filename ? `${upload.filename} holds` : 'The file holds';
  const message =
    recordCount === 0
      ? `${name} no transcript records${readerDiagnosticCount > 0 ? `: ${readerDiagnosticCount} line(s) could not be read` : ''}`
      : `${name} ${recordCount} record(s) but no conversation leaf (only titles or metadata)`;
  return new AppError('validation_failed', message, {
    details: {
      issues: [{ path: 'content', message: 'no conversation leaf' }],
      reader_diagnostics: readerDiagnostics,
      reader_diagnostic_count: readerDiagnosticCount,
    },
  });
}
