// The one way the browser talks to the REST API: JSON in, a domain schema out,
// every failure an ApiError carrying the server's closed error code.
import { ErrorBodySchema } from '@trellis/domain';
import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** 409 while another turn on the same thread is running. */
  get isTurnInProgress(): boolean {
    return this.status === 409;
  }

  get isNotFound(): boolean {
    return this.status === 404;
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
    `http_${response.status}`,
    response.statusText || `Request failed (${response.status})`,
  );
}
