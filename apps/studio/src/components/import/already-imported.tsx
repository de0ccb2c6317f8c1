import { Copy, Info } from 'lucide-react';
import Link from 'next/link';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { errorMessage, isApiError } from '@/lib/api/http';

const AlreadyImportedSchema = z.object({
  reason: z.literal('already_imported'),
  thread_id: z.string(),
  title: z.string(),
  imported_at: z.string(),
});
export type EarlierImport = z.infer<typeof AlreadyImportedSchema>;

/** The earlier import a 409 names, when the refusal is "you imported this file before". */
export function earlierImportOf(error: unknown): EarlierImport | null {
  if (!isApiError(error) || error.code !== 'conflict') return null;
  const parsed = AlreadyImportedSchema.safeParse(error.details);
  return parsed.success ? parsed.data : null;
}

/** Not a failure: the file is here already. Open that copy, or import a second one on purpose. */
export function AlreadyImported({
  error,
  earlier,
  isImporting,
  onImportAgain,
}: {
  error: unknown;
  earlier: EarlierImport;
  isImporting: boolean;
  onImportAgain: () => void;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-lg border bg-muted/40 p-3 text-sm sm:flex-row sm:items-center" role="status" data-testid="already-imported">
      <Info aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      <p className="flex-1" data-testid="already-imported-message">
        {errorMessage(error)}
      </p>
      <div className="flex gap-2">
        <Button asChild variant="outline" size="sm">
          <Link href={`/c/${encodeURIComponent(earlier.thread_id)}`} data-testid="open-earlier-import">
            Open it
          </Link>
        </Button>
        <Button size="sm" data-testid="import-again" disabled={isImporting} onClick={onImportAgain}>
          <Copy />
          Import again
        </Button>
      </div>
    </div>
  );
}
