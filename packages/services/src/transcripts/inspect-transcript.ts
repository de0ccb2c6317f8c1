import { MAX_LISTED_DIAGNOSTICS, type TranscriptInspection } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { readTranscript, type TranscriptUpload } from './read-transcript';

/**
 * What a transcript holds, without writing anything (issue 7 §5): every semantic leaf with its
 * summary, the inspector's and the reader's diagnostics (the first MAX_LISTED_DIAGNOSTICS of each,
 * with their counts), the detected format, and what importing each leaf would bring in.
 * 413 over the size limit; 422 when no leaf remains.
 */
export async function inspectTranscript(
  _deps: Pick<ServiceDeps, 'logger'>,
  _actor: ThreadActor,
  upload: TranscriptUpload,
): Promise<TranscriptInspection> {
  const read = readTranscript(upload);
  return {
    format: read.format,
    filename: upload.filename ?? null,
    record_count: read.records.length,
    branches: read.branches,
    leaves: read.leaves.map((leaf) => ({ leaf_uuid: leaf.leafUuid, turn_count: leaf.turns.length, title: leaf.title })),
    diagnostics: read.diagnostics.slice(0, MAX_LISTED_DIAGNOSTICS),
    diagnostic_count: read.diagnostics.length,
    reader_diagnostics: read.readerDiagnostics.slice(0, MAX_LISTED_DIAGNOSTICS),
    reader_diagnostic_count: read.readerDiagnostics.length,
  };
}
