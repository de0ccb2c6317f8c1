// The one error type of Trellis. Its codes are a closed set: the studio maps each
// to an HTTP status in one exhaustive table (Record<AppErrorCode, number>), so a
// new code without a status does not compile.
export const APP_ERROR_CODES = [
  'bad_request',
  'unauthenticated',
  'forbidden',
  'branching_disabled',
  'not_found',
  'conflict',
  'validation_failed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'turn_in_progress',
  'upstream_failed',
  'unavailable',
  'internal',
] as const;

export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * Marks an AppError whichever copy of this module made it. The studio's bundler gives the
 * start-up code (which creates the service dependencies, the turn gate among them) and the route
 * handlers a copy each, so an error thrown by one copy is not an `instanceof` the other's class.
 */
const APP_ERROR_MARK: unique symbol = Symbol.for('trellis.AppError');

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: unknown;
  readonly [APP_ERROR_MARK] = true;

  constructor(code: AppErrorCode, message: string, options?: { details?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options?.details;
  }

  static notFound(what: string): AppError {
    return new AppError('not_found', `${what} not found`);
  }

  static forbidden(message = 'You do not have access to this resource'): AppError {
    return new AppError('forbidden', message);
  }

  static validation(issues: FieldIssue[], message = 'The request is not valid'): AppError {
    return new AppError('validation_failed', message, { details: { issues } });
  }
}

/** True for an AppError from any copy of this module (see APP_ERROR_MARK). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError || (value instanceof Error && (value as { [APP_ERROR_MARK]?: unknown })[APP_ERROR_MARK] === true);
}
