// One contract per route, declared beside its handler: method, path and its
// parameters, body, query, response and the error codes the route can answer.
// The wrapper parses with it, checks the response outside production, and the
// OpenAPI document is generated from these declarations alone (see
// `openapi/document.ts`); a test compares them with the route folders.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { AppError, MAX_JSON_DEPTH, PathIdSchema, exceedsJsonDepth, fromZodError, type AccessNeed, type AppErrorCode } from '@trellis/domain';
import { authenticate, type Actor } from '@trellis/services';
import { sameOriginPolicy } from './client-address';
import { getContext, type AppContext } from './context';
import { env } from './env';
import { errorResponse } from './http';
import { logger } from './logger';
import { MAX_JSON_BODY_BYTES, readCappedBytes } from './read-body';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type ParamShape = Record<string, z.ZodType>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type ParamsOf<P> = P extends ParamShape ? { [K in keyof P]: z.output<P[K]> } : Record<string, never>;

export interface RouteContract<P extends ParamShape | undefined = ParamShape | undefined, B = unknown, Q = unknown> {
  method: HttpMethod;
  /** The OpenAPI path, parameters in braces named like the route folders (`[tid]` → `{tid}`). */
  path: `/api/${string}`;
  tag: string;
  summary: string;
  description?: string;
  /**
   * On a thread-scoped route (`/api/conversations/{id}/…`): what the caller's role in the family must
   * allow (the services' access rule enforces it; the role × operation test checks every route).
   */
  access?: AccessNeed;
  /** Public routes skip authentication (health, the API description, auth itself). */
  isPublic?: boolean;
  /**
   * A route a study participant's session may call besides their family's thread-scoped ones (their
   * Finish); every other authenticated route answers them 404.
   */
  forParticipants?: boolean;
  /**
   * With `forParticipants`: a participant who has finished may still call it (Finish again answers
   * the same completion); their other writes stay 403.
   */
  admitsFinishedParticipant?: boolean;
  /**
   * The answer to paths no route claims (a JSON 404), not an operation: left out of the OpenAPI
   * document, where a catch-all path would give a generated client a method that cannot succeed.
   */
  isFallback?: boolean;
  /** One schema per path parameter; `PathIdSchema` failures answer 404, others 422. */
  params?: P;
  body?: B;
  /**
   * A raw binary body instead of JSON (`application/zip`): the handler reads it with
   * `readCappedBytes`, and the OpenAPI document describes it with this text.
   */
  rawBody?: { mediaType: 'application/zip'; description: string };
  /** Bytes read at most before 413 (ordinary JSON routes: 1 MB). */
  maxBodyBytes?: number;
  /** The 413 message when `maxBodyBytes` is exceeded. */
  tooLargeMessage?: string;
  /**
   * Decodes and parses the body's JSON elsewhere (a worker thread) instead of on the request
   * thread, for bodies of many megabytes; malformed JSON must reject with a 400. The result is
   * checked against `body` as usual.
   */
  parseBody?: (bytes: Uint8Array) => Promise<unknown>;
  query?: Q;
  response?: z.ZodType;
  /** The success content type when it is not JSON (event streams, HTML). */
  contentType?: string;
  /** Other media types the success answer can take (chosen by a `format` query), each with what it holds. */
  alsoContent?: Readonly<Record<string, string>>;
  status?: number;
  /**
   * Other successful answers, by status (a dry run's 200 beside a creation's 201): the handler picks
   * one by returning {@link withStatus}; each is checked against its own schema.
   */
  alsoResponds?: Readonly<Record<number, { description: string; schema: z.ZodType }>>;
  /** Every AppError code this route can answer. */
  errors: readonly AppErrorCode[];
}

export interface RouteInput<P, B, Q> {
  request: Request;
  params: ParamsOf<P>;
  body: Out<B>;
  query: Out<Q>;
}

export interface AuthedInput<P, B, Q> extends RouteInput<P, B, Q> {
  ctx: AppContext;
  actor: Actor;
}

// Next types the segment values per route; the contract's schemas are what narrow them here.
type NextRouteContext = { params: Promise<unknown> };
export type RouteHandler = ((request: Request, route: NextRouteContext) => Promise<Response>) & { contract: RouteContract };

/** An authenticated route: authentication comes first, then the contract's parsing. */
export function defineRoute<P extends ParamShape | undefined = undefined, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  contract: RouteContract<P, B, Q>,
  run: (input: AuthedInput<P, B, Q>) => Promise<Response | object>,
): RouteHandler {
  return wrap(
    contract,
    async (request) => {
      const ctx = await getContext();
      const acceptsZip = contract.rawBody !== undefined;
      const admitsFinishedParticipant = contract.forParticipants === true && contract.admitsFinishedParticipant === true;
      const actor = await authenticateRequest(ctx, request.method, request.headers, hasBody(request), { acceptsZip, admitsFinishedParticipant });
      // A participant reaches their own family's routes and the ones meant for them, nothing else:
      // no list of conversations, no tokens, no study pages — as if they did not exist.
      if (actor.kind === 'participant' && contract.access === undefined && !contract.forParticipants) throw AppError.notFound('That resource was');
      return { ctx, actor };
    },
    run,
  );
}

function authenticateRequest(
  ctx: AppContext,
  method: string,
  headers: Headers,
  withBody: boolean,
  options: { acceptsZip?: boolean; admitsFinishedParticipant?: boolean } = {},
): Promise<Actor> {
  const sameOrigin = sameOriginPolicy(headers);
  return authenticate({ db: ctx.deps.db, auth: ctx.auth }, { method, headers, hasBody: withBody, sameOrigin, ...options });
}

/**
 * For an answer that outlives its request (a stream): a check, run as often as the caller likes,
 * that the request's session or token still stands for the same user (signed out or revoked → false).
 */
export function sameActorCheck(ctx: AppContext, request: Request, actor: Actor): () => Promise<boolean> {
  const headers = new Headers(request.headers);
  return () =>
    authenticateRequest(ctx, 'GET', headers, false).then(
      (again) => again.userId === actor.userId,
      () => false,
    );
}

/** A public route: no authentication, errors still mapped. */
export function definePublicRoute<P extends ParamShape | undefined = undefined, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  contract: RouteContract<P, B, Q>,
  run: (input: RouteInput<P, B, Q>) => Promise<Response | object>,
): RouteHandler {
  return wrap({ ...contract, isPublic: true }, async () => ({}), run);
}

function wrap<P extends ParamShape | undefined, B extends z.ZodType | undefined, Q extends z.ZodType | undefined, A extends object>(
  contract: RouteContract<P, B, Q>,
  admit: (request: Request) => Promise<A>,
  run: (input: RouteInput<P, B, Q> & A) => Promise<Response | object>,
): RouteHandler {
  const handler = async (request: Request, route: NextRouteContext): Promise<Response> => {
    try {
      const admitted = await admit(request);
      const params = parseParams(contract.params, ((await route.params) ?? {}) as Record<string, unknown>) as ParamsOf<P>;
      const query = (contract.query ? parseQuery(contract.query, request) : undefined) as Out<Q>;
      const body = (contract.body ? await readBody(contract, request) : undefined) as Out<B>;
      const result = await run({ ...admitted, request, params, body, query });
      if (result instanceof Response) return result;
      if (result instanceof StatusAnswer) {
        const alternative = contract.alsoResponds?.[result.status];
        if (!alternative) throw new AppError('internal', `${contract.method} ${contract.path} does not declare status ${result.status}`);
        if (shouldCheckResponses()) checkResponse({ ...contract, response: alternative.schema }, result.body);
        return NextResponse.json(result.body, { status: result.status });
      }
      if (shouldCheckResponses()) checkResponse(contract, result);
      return NextResponse.json(result, { status: contract.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
  return Object.assign(handler, { contract: contract });
}

class StatusAnswer {
  constructor(
    readonly status: number,
    readonly body: object,
  ) {}
}

/** Answers with one of the contract's `alsoResponds` statuses instead of its main one. */
export function withStatus(status: number, body: object): StatusAnswer {
  return new StatusAnswer(status, body);
}

function parseParams(shape: ParamShape | undefined, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape ?? {})) {
    const result = schema.safeParse(raw[name]);
    if (!result.success) {
      if (schema === PathIdSchema) throw AppError.notFound('That resource was');
      throw fromZodError(new z.ZodError(result.error.issues.map((i) => ({ ...i, path: [name, ...i.path] }))));
    }
    parsed[name] = result.data;
  }
  return parsed;
}

function parseQuery(schema: z.ZodType, request: Request): unknown {
  const result = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/** Malformed JSON is a 400, a schema failure a 422 naming the field, an oversized body a 413. */
async function readBody(contract: RouteContract, request: Request): Promise<unknown> {
  const bytes = await readCappedBytes(request, contract.maxBodyBytes ?? MAX_JSON_BODY_BYTES, contract.tooLargeMessage);
  const body = contract.parseBody ? await contract.parseBody(bytes) : parseJson(bytes.toString('utf8'));
  const result = (contract.body as z.ZodType).safeParse(body);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

function parseJson(text: string): unknown {
  if (exceedsJsonDepth(text)) throw jsonTooDeep();
  try {
    return text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The request body is not valid JSON');
  }
}

export function jsonTooDeep(): AppError {
  return AppError.validation(
    [{ path: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
    `The request body nests deeper than ${MAX_JSON_DEPTH} levels`,
  );
}

function shouldCheckResponses(): boolean {
  const e = env();
  return e.NODE_ENV !== 'production' || e.TRELLIS_CHECK_RESPONSES;
}

/** Outside production a handler that answers outside its contract is a 500 that says so. */
function checkResponse(contract: RouteContract, result: object): void {
  if (!contract.response) return;
  const parsed = contract.response.safeParse(JSON.parse(JSON.stringify(result)));
  if (parsed.success) return;
  logger.error({ route: `${contract.method} ${contract.path}`, issues: parsed.error.issues }, 'response does not match its contract');
  throw new AppError('internal', `The response of ${contract.method} ${contract.path} does not match its contract`, {
    details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) },
  });
}

function hasBody(request: Request): boolean {
  if (['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(request.method.toUpperCase())) return false;
  const length = request.headers.get('content-length');
  return length === null ? request.body !== null : Number(length) > 0;
}

/** The contract of every method a route module exports. */
export function contractsOf(module: Record<string, unknown>): RouteContract[] {
  return HTTP_METHODS.flatMap((method) => {
    const handler = module[method] as Partial<RouteHandler> | undefined;
    return handler?.contract ? [handler.contract] : [];
  });
}

/**
 * Codes the wrapper itself answers, so declarations read as what they add. An authenticated route
 * answers a study participant's session with a 404 unless it is thread-scoped (their own family) or
 * opens itself to participants.
 */
export const AUTHED = ['unauthenticated', 'forbidden', 'not_found'] as const;
export const OWNED = AUTHED;
export const JSON_BODY = ['bad_request', 'unsupported_media_type', 'payload_too_large', 'validation_failed'] as const;

/** The codes a contract must declare because the wrapper answers them (the coverage test's rule). */
export function impliedErrors(contract: RouteContract): AppErrorCode[] {
  const codes = new Set<AppErrorCode>();
  if (!contract.isPublic) {
    codes.add('unauthenticated').add('forbidden').add('not_found');
    if (contract.method !== 'GET' && contract.method !== 'DELETE') codes.add('unsupported_media_type');
  }
  for (const schema of Object.values(contract.params ?? {})) {
    // A catch-all's segments (`[...all]`) are any list of strings: nothing to refuse.
    if (schema instanceof z.ZodArray) continue;
    codes.add(schema === PathIdSchema ? 'not_found' : 'validation_failed');
  }
  if (contract.query) codes.add('validation_failed');
  if (contract.body) for (const code of JSON_BODY) codes.add(code);
  if (contract.rawBody) codes.add('payload_too_large').add('validation_failed');
  return [...codes];
}
