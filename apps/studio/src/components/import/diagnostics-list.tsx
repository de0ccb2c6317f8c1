import type { TranscriptDiagnostic, TranscriptReaderDiagnostic } from '@trellis/domain';
import { AlertTriangle } from 'lucide-react';
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
