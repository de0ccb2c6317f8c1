import { plural, type TranscriptDiagnostic, type TranscriptInspection, type TranscriptReaderDiagnostic } from '@trellis/domain';
import { AlertTriangle, Info } from 'lucide-react';
import { describeDiagnostic, describeReaderDiagnostic } from './describe-diagnostic';

export interface DiagnosticsListProps {
  readerDiagnostics: readonly TranscriptReaderDiagnostic[];
  readerDiagnosticCount: number;
  diagnostics?: readonly TranscriptDiagnostic[];
  diagnosticCount?: number;
  /** Nothing could be read: the list explains a refusal rather than a partial read. */
  isFatal?: boolean;
}

/** Lines the reader skipped (by line number) and what the inspector noticed; none of it is fatal. */
export function DiagnosticsList({
  readerDiagnostics,
  readerDiagnosticCount,
  diagnostics = [],
  diagnosticCount = 0,
  isFatal = false,
}: DiagnosticsListProps) {
  if (readerDiagnosticCount === 0 && diagnosticCount === 0) return null;
  return (
    <section
      aria-label="Diagnostics"
      data-testid="diagnostics"
      className="rounded-lg border border-amber-300/70 bg-amber-50/60 p-3 text-sm"
    >
      <h3 className="mb-2 flex items-center gap-1.5 font-medium text-amber-900">
        <AlertTriangle aria-hidden className="size-4" />
        {summary(readerDiagnosticCount, diagnosticCount)}
        {isFatal ? '' : ' — the rest was read'}
      </h3>
      <ul className="max-h-56 space-y-1 overflow-y-auto pr-1 text-amber-950/90">
        {readerDiagnostics.map((d, i) => (
          <li key={`r${i}`} data-testid="diagnostic-item" className="flex gap-2">
            <span className="w-16 shrink-0 font-mono text-xs leading-5 text-amber-800">line {d.line}</span>
            <span className="min-w-0 break-words">{describeReaderDiagnostic(d)}</span>
          </li>
        ))}
        {readerDiagnosticCount > readerDiagnostics.length && (
          <li className="text-xs text-amber-800">
            … and {readerDiagnosticCount - readerDiagnostics.length} more unreadable lines
          </li>
        )}
        {diagnostics.map((d, i) => (
          <li key={`d${i}`} data-testid="diagnostic-item" className="flex gap-2">
            <span className="w-16 shrink-0 font-mono text-xs leading-5 text-amber-800">tree</span>
            <span className="min-w-0 break-words">{describeDiagnostic(d)}</span>
          </li>
        ))}
        {diagnosticCount > diagnostics.length && (
          <li className="text-xs text-amber-800">… and {diagnosticCount - diagnostics.length} more</li>
        )}
      </ul>
    </section>
  );
}

function summary(lines: number, tree: number): string {
  const parts = [];
  if (lines > 0) parts.push(`${lines} line${lines === 1 ? '' : 's'} could not be read`);
  if (tree > 0) parts.push(`${tree} note${tree === 1 ? '' : 's'} on the record tree`);
  return parts.join(' · ');
}

/**
 * Record types the reader does not know (a newer client's metadata): listed as skipped, in a quiet
 * note rather than the warning, since nothing of the conversation was lost.
 */
export function SkippedRecordTypes({ skipped }: { skipped: TranscriptInspection['skipped_record_types'] }) {
  if (skipped.length === 0) return null;
  return (
    <section aria-label="Skipped records" data-testid="skipped-record-types" className="rounded-lg border bg-muted/40 p-3 text-sm text-muted-foreground">
      <p className="flex items-center gap-1.5">
        <Info aria-hidden className="size-4 shrink-0" />
        Not part of the conversation, so left out:
      </p>
      <ul className="mt-1 space-y-0.5 pl-6">
        {skipped.map(({ record_type, count }) => (
          <li key={record_type} data-testid="skipped-record-type">
            skipped: {plural(count, 'record')} of type <code className="font-mono text-xs text-foreground">{record_type}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
