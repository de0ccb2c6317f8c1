import { TranscriptReaderDiagnosticSchema } from '@trellis/domain';
import { XCircle } from 'lucide-react';
import { z } from 'zod';
import { errorMessage, isApiError } from '@/lib/api/http';
import { DiagnosticsList } from './diagnostics-list';

const NoLeafDetailsSchema = z.object({
  reader_diagnostics: z.array(TranscriptReaderDiagnosticSchema),
  reader_diagnostic_count: z.int(),
});

/** A refused inspection or import: the server's message, and the unreadable lines when it lists them. */
export function ImportError({ error, title }: { error: unknown; title: string }) {
  const details = isApiError(error) ? NoLeafDetailsSchema.safeParse(error.details) : undefined;
  return (
    <div className="space-y-3" role="alert" data-testid="import-error" data-status={isApiError(error) ? error.status : 0}>
      <div className="flex gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm">
        <XCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
        <div className="space-y-0.5">
          <p className="font-medium text-destructive">{title}</p>
          <p data-testid="import-error-message">{errorMessage(error)}</p>
          {isApiError(error) && error.code === 'payload_too_large' && (
            <p className="text-muted-foreground">Split the session into smaller files, or remove old sessions from it.</p>
          )}
        </div>
      </div>
      {details?.success && (
        <DiagnosticsList
          readerDiagnostics={details.data.reader_diagnostics}
          readerDiagnosticCount={details.data.reader_diagnostic_count}
          isFatal
        />
      )}
    </div>
  );
}
