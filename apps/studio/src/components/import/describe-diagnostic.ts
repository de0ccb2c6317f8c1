// Diagnostics in words, for the import page. Reader diagnostics name the file's line; the
// inspector's name records, so they are shortened to something a person can scan.
import type { TranscriptDiagnostic, TranscriptReaderDiagnostic } from '@trellis/domain';

export function describeReaderDiagnostic(d: TranscriptReaderDiagnostic): string {
  switch (d.kind) {
    case 'malformed-line':
      return `not valid JSON (${d.message})`;
    case 'glued-objects':
      return `${d.count} JSON objects written on one line; each was read`;
    case 'line-too-long':
      return `too long to read (${d.length.toLocaleString()} characters); skipped`;
    case 'invalid-record':
      return `not a transcript record: ${d.reason}`;
    case 'unknown-record-type':
      return `unknown record type “${d.recordType}”`;
  }
}

export function describeDiagnostic(d: TranscriptDiagnostic): string {
  switch (d.kind) {
    case 'missing-parent':
      return `Record ${shortUuid(d.childUuid)} follows ${shortUuid(d.missingParentUuid)}, which is not in the file; its chain starts there`;
    case 'parent-cycle':
      return `${d.uuids.length} records form a parent cycle (${d.uuids.slice(0, 3).map(shortUuid).join(', ')}${d.uuids.length > 3 ? ', …' : ''}); it was cut`;
    case 'conflicting-parent':
      return `Record ${shortUuid(d.uuid)} was written with ${d.parentUuids.length} different parents; the first one counts`;
  }
}

export function shortUuid(uuid: string): string {
  return uuid.length > 12 ? `${uuid.slice(0, 8)}…` : uuid;
}
