// The one way the browser talks to the REST API: JSON in, a domain schema out,
// every failure an ApiError carrying the server's closed error code.
import { ErrorBodySchema, type AppErrorCode } from '@trellis/domain';
import type { z } from 'zod';

/** The server's AppError codes, plus the client's own: no response at all, or a body outside the contract. */
export type ApiErrorCode = AppErrorCode | 'network' | 'bad_response';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Another turn on the same thread is running (a 409, like the unrelated `conflict`). */
  get isTurnInProgress(): boolean {
    return this.code === 'turn_in_progress';
  }

  get isNotFound(): boolean {
    return this.code === 'not_found';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** A message that is safe to show the user for any thrown value. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error && error.name === 'AbortError') return 'The request was cancelled';
  return 'Something went wrong';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  accept?: string;
}

/** Sends a request and returns the raw response when it is 2xx; throws ApiError otherwise. */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** A JSON request whose response is parsed with `schema` (never cast). */
export async function apiJson<S extends z.ZodType>(
  schema: S,
  path: string,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const response = await apiFetch(path, options);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'bad_response',
      'The server sent a response this page does not understand.',
      parsed.error.issues,
    );
  }
  return parsed.data;
}

/** A request whose response body does not matter (deletes, updates followed by a refetch). */
export async function apiCall(path: string, options: RequestOptions = {}): Promise<void> {
  const response = await apiFetch(path, options);
  // Read to the end rather than cancel, so the request completes normally.
  await response.arrayBuffer().catch(() => undefined);
}

export async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(response.status, code, message, details);
  }
  return new ApiError(
    response.status,
    'bad_response',
    response.statusText || `Request failed (${response.status})`,
  );
}
