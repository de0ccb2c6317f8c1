import { errorMessage, isApiError } from '@/lib/api/http';

/**
 * Why an apply was refused, in words: a running reply on the target says so and what to do; a
 * lock on the target (a 409 `conflict`) keeps the server's message, which names the preference.
 */
export function applyErrorMessage(error: unknown): string {
  if (isApiError(error) && error.isTurnInProgress) {
    return 'A reply is still running on that path. Wait for it to finish, then apply again.';
  }
  if (isApiError(error) && error.code === 'conflict') return `Not applied: ${error.message}`;
  return errorMessage(error);
}
