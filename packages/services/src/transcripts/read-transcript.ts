// Reading an uploaded transcript, shared by inspect and import: the limits, the reader of
// the detected format (malformed lines become line-numbered diagnostics, never a failure), the
// inspector, and each leaf read as turns.
import { AppError, MAX_LISTED_DIAGNOSTICS } from '@trellis/domain';
import {
  inspectConversationBranches,
  parseTranscriptJsonl,
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
import {
  assertLeafCountWithinLimit,
  assertNestingWithinLimit,
  assertRecordCountWithinLimit,
  assertWithinByteLimit,
} from './upload-limits';

export interface TranscriptUpload {
  content: string;
  filename?: string | undefined;
}

export interface ReadTranscript {
  format: TranscriptFormat;
  records: readonly ChatRecord[];
  readerDiagnostics: ReaderDiagnostic[];
  branches: BranchSummary[];
  diagnostics: Diagnostic[];
  /** Aligned with `branches`. */
  leaves: LeafPath[];
}

export function readTranscript(upload: TranscriptUpload): ReadTranscript {
  assertWithinByteLimit(upload.content);
  assertNestingWithinLimit(upload.content);
  const { format, records, sidechainRecords, diagnostics: readerDiagnostics } = parseTranscriptJsonl(upload.content);
  assertRecordCountWithinLimit(records.length + sidechainRecords.length);
  const { branches, diagnostics } = inspectConversationBranches(records);
  if (branches.length === 0) throw noLeaves(upload, records.length, readerDiagnostics);
  assertLeafCountWithinLimit(branches.length);
  const index = indexTranscript(records);
  const titles = createTitleSource(index, upload.content);
  const now = Date.now();
  const leaves = branches.map((branch): LeafPath => {
    const chain = chainOf(index, branch.leafUuid);
    const turns = turnsOf(index, chain, now);
    const { title, isOwn } = titles.titleOf(chain, turns);
    return { leafUuid: branch.leafUuid, turns, title, hasOwnTitle: isOwn };
  });
  return { format, records, readerDiagnostics, branches, diagnostics, leaves };
}

function noLeaves(upload: TranscriptUpload, recordCount: number, readerDiagnostics: ReaderDiagnostic[]): AppError {
  const name = upload.filename ? `${upload.filename} holds` : 'The file holds';
  const message =
    recordCount === 0
      ? `${name} no transcript records${readerDiagnostics.length > 0 ? `: ${readerDiagnostics.length} line(s) could not be read` : ''}`
      : `${name} ${recordCount} record(s) but no conversation leaf (only titles or metadata)`;
  return new AppError('validation_failed', message, {
    details: {
      issues: [{ path: 'content', message: 'no conversation leaf' }],
      reader_diagnostics: readerDiagnostics.slice(0, MAX_LISTED_DIAGNOSTICS),
      reader_diagnostic_count: readerDiagnostics.length,
    },
  });
}
