// AppError → HTTP: one exhaustive status table and the one error body shape
// `{error: {code, message, details?}}`. No handler returns a raw exception;
// `define-route.ts` sends every failure through `errorResponse`.
import { NextResponse } from 'next/server';
import { isAppError, type AppErrorCode } from '@trellis/domain';
import { logger } from './logger';
import { ClientAbortedError } from './read-body';

/** Exhaustive: a new AppErrorCode without a status does not compile (STYLE §4). */
export const STATUS_BY_CODE: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  branching_disabled: 403,
  not_found: 404,
  conflict: 409,
  turn_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
};

export function errorResponse(error: unknown): NextResponse {
  if (isAppError(error)) {
    const status = STATUS_BY_CODE[error.code];
    if (status >= 500) logger.error({ err: error, cause: error.cause }, error.message);
    const headers: Record<string, string> = {};
    const retry = (error.details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds;
    if ((error.code === 'rate_limited' || error.code === 'unavailable') && retry !== undefined) {
      headers['retry-after'] = String(retry);
    }
    return NextResponse.json(
      { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } },
      { status, headers },
    );
  }
  if (error instanceof ClientAbortedError) {
    const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
    logger.info({ cause }, 'request aborted by the client');
    // Nobody reads this answer; it is a 400 so no route declares a 500 for a client that left.
    return NextResponse.json({ error: { code: 'bad_request', message: error.message } }, { status: 400 });
  }
  logger.error({ err: error }, 'unhandled error');
  return NextResponse.json({ error: { code: 'internal', message: 'Something went wrong on our side' } }, { status: 500 });
}
