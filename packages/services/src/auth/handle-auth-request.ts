import { AppError } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { consumeRateLimit, rateLimited, RATE_LIMITS } from '../rate-limit/consume-rate-limit';
import type { FamilyHub } from '../live/family-hub';
import { CLIENT_ADDRESS_HEADER, type Auth } from './create-auth';

/** Auth bodies are a few short fields; anything larger is not a sign-in. */
export const MAX_AUTH_BODY_BYTES = 64 * 1024;

/**
 * One request to better-auth's routes. The body must be a JSON object without
 * text Postgres cannot store (400/422 instead of an error deep in the adapter);
 * sign-in is limited per (address, account) here and better-auth limits each
 * path per address. The address is the resolved client address, written into
 * the header better-auth reads so a client-sent value never counts.
 */
export async function handleAuthRequest(
  deps: { db: Db; auth: Auth; family?: Pick<FamilyHub, 'endStreams' | 'recheckStreams'> },
  request: Request,
  clientAddress: string,
): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, clientAddress);
  const path = new URL(request.url).pathname;
  // Whose access this request may end, read before it ends (a signed-out session reads as nobody).
  const ending = deps.family && endsAccess(path) ? await deps.auth.api.getSession({ headers }).catch(() => null) : null;
  let body: string | undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    body = await readBody(request);
    const parsed = parseAuthBody(body, headers.get('content-type'));
    if (path.endsWith('/sign-in/email')) {
      const email = typeof parsed?.email === 'string' ? parsed.email.trim().toLowerCase() : '';
      await consumeRateLimit(deps.db, `sign-in:${clientAddress}:${email}`, RATE_LIMITS.signIn);
    }
  }
  const forwarded = new Request(request.url, { method: request.method, headers, body });
  const response = await deps.auth.handler(forwarded);
  if (response.status === 429) throw rateLimited(Number(response.headers.get('x-retry-after')) || 60);
  if (ending && deps.family && response.ok) await endStreamsOf(deps.family, path, ending);
  return response;
}

/** better-auth routes after which some of a user's event streams must not stay open. */
const SIGN_OUT = /\/sign-out$/;
const ACCESS_CHANGES = /\/(change-password|revoke-session|revoke-sessions|revoke-other-sessions|delete-user)$/;

function endsAccess(path: string): boolean {
  return SIGN_OUT.test(path) || ACCESS_CHANGES.test(path);
}

/**
 * A sign-out ends the streams its session opened; a changed password or a revoked session ends
 * those of the user's sessions and tokens that no longer stand (each stream checks its own), so
 * the session that made the change keeps listening. Every studio process does it within a moment.
 */
async function endStreamsOf(
  family: Pick<FamilyHub, 'endStreams' | 'recheckStreams'>,
  path: string,
  ending: { session: { id: string }; user: { id: string } },
): Promise<void> {
  if (SIGN_OUT.test(path)) await family.endStreams({ sessionId: ending.session.id }, 'signed_out');
  else await family.recheckStreams({ userId: ending.user.id }, 'access_revoked');
}

async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_AUTH_BODY_BYTES) throw tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_AUTH_BODY_BYTES) throw tooLarge();
  return text;
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', `The request body is larger than ${MAX_AUTH_BODY_BYTES / 1024} KB`);
}

/**
 * The JSON object of a body (null when empty). Only JSON is accepted, so the
 * per-account limit always sees the email better-auth will use.
 */
export function parseAuthBody(text: string, contentType: string | null): Record<string, unknown> | null {
  if (text.length === 0) return null;
  if (!/^application\/json\b/i.test(contentType ?? '')) {
    throw new AppError('unsupported_media_type', 'Auth requests must send application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('bad_request', 'The request body must be a JSON object');
  }
  const bad = findUnstorableText(value, []);
  if (bad) throw AppError.validation([{ path: bad.path || '(root)', message: bad.reason }], `${bad.path || 'The body'} ${bad.reason}`);
  return value as Record<string, unknown>;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function findUnstorableText(value: unknown, path: string[]): { path: string; reason: string } | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { path: path.join('.'), reason: 'contains a NUL character' };
    if (LONE_SURROGATE.test(value)) return { path: path.join('.'), reason: 'contains an unpaired surrogate' };
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findUnstorableText(key, path) ?? findUnstorableText(child, [...path, key]);
    if (found) return found;
  }
  return null;
}
