// The one error type of Trellis. Its codes are a closed set: the studio maps each
// to an HTTP status in one exhaustive table (Record<AppErrorCode, number>), so a
// new code without a status does not compile.
export const APP_ERROR_CODES = [
  'bad_request',
  'unauthenticated',
  'forbidden',
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

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: unknown;

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

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
