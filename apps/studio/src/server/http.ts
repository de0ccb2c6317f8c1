// The thin HTTP edge: parse with the zod contract, authenticate, call one
// service, map the result or the AppError. No handler returns a raw exception.
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { AppError, fromZodError, isAppError, type AppErrorCode } from '@trellis/domain';
import { authenticate, type Actor } from '@trellis/services';
import { getContext, type AppContext } from './context';
import { logger } from './logger';

/** Exhaustive: a new AppErrorCode without a status does not compile (STYLE §4). */
export const STATUS_BY_CODE: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
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
  logger.error({ err: error }, 'unhandled error');
  return NextResponse.json({ error: { code: 'internal', message: 'Something went wrong on our side' } }, { status: 500 });
}

export interface RequestContext<P> {
  request: Request;
  params: P;
  ctx: AppContext;
  actor: Actor;
}

type RouteParams = Record<string, string>;
type NextRouteContext = { params: Promise<RouteParams> };

/** An authenticated route. `run` returns a Response or a JSON-serialisable value (200). */
export function authed<P extends RouteParams = RouteParams>(
  run: (c: RequestContext<P>) => Promise<Response | object>,
  options: { status?: number } = {},
) {
  return async (request: Request, route: NextRouteContext): Promise<Response> => {
    try {
      const ctx = await getContext();
      const actor = await authenticate(
        { db: ctx.deps.db, auth: ctx.auth },
        { method: request.method, headers: request.headers, hasBody: hasBody(request) },
      );
      const params = (await route.params) as P;
      const result = await run({ request, params, ctx, actor });
      return result instanceof Response ? result : NextResponse.json(result, { status: options.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** A public route (health, docs): errors are still mapped. */
export function open(run: (request: Request) => Promise<Response | object>) {
  return async (request: Request): Promise<Response> => {
    try {
      const result = await run(request);
      return result instanceof Response ? result : NextResponse.json(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

function hasBody(request: Request): boolean {
  if (['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(request.method.toUpperCase())) return false;
  const length = request.headers.get('content-length');
  return length === null ? request.body !== null : Number(length) > 0;
}

/** Reads and validates a JSON body; malformed JSON is a 400, a schema failure a 422. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  let body: unknown;
  const text = await request.text();
  try {
    body = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The request body is not valid JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}

/** Validates a path or query value with a schema (422 on failure). */
export function parseParam<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}
