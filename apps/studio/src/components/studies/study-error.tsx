import { isApiError, errorMessage } from '@/lib/api/http';

/** The server's message, and for a refused form each field it named (`conditions.0.model: is not …`). */
export function describeError(error: unknown): string {
  const message = errorMessage(error);
  if (!isApiError(error) || error.code !== 'validation_failed') return message;
  const issues =
    (error.details as { issues?: { path?: string; message?: string }[] } | undefined)?.issues ?? [];
  const named = issues.filter((i) => i.message).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  return named.length === 0 ? message : `${message} — ${named.join('; ')}`;
}

export function ErrorNote({ message, testId }: { message: string | null; testId: string }) {
  if (message === null) return null;
  return (
    <p
      role="alert"
      data-testid={testId}
      className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm"
    >
      {message}
    </p>
  );
}
