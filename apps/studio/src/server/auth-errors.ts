// better-auth answers its own errors as `{code, message}` with codes of its own
// (INVALID_EMAIL_OR_PASSWORD, USER_ALREADY_EXISTS…). The studio's clients read
// one error shape, so those bodies are rewritten to `{error: {code, message,
// details: {auth_code}}}` with the AppError code of their status.
import type { AppErrorCode } from '@trellis/domain';
import { STATUS_BY_CODE } from './http';

const CODE_BY_STATUS = new Map<number, AppErrorCode>(
  // 409 has two codes; an auth conflict is never a running turn.
  Object.entries(STATUS_BY_CODE)
    .filter(([code]) => code !== 'turn_in_progress')
    .map(([code, status]) => [status, code as AppErrorCode]),
);

export async function toAppErrorBody(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const code = CODE_BY_STATUS.get(response.status) ?? (response.status >= 500 ? 'internal' : 'bad_request');
  const text = await response.text();
  let original: { code?: unknown; message?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') original = parsed;
  } catch {
    // Not JSON: keep the status, describe it generically.
  }
  if ('error' in original) return new Response(text, { status: response.status, headers: response.headers });
  const message = typeof original.message === 'string' && original.message ? original.message : response.statusText || 'The request was refused';
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  const body = { error: { code, message, ...(typeof original.code === 'string' ? { details: { auth_code: original.code } } : {}) } };
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
