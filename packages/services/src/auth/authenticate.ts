import { AppError } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { findApiToken } from '../tokens/api-tokens';
import { PARTICIPANT_COOKIE, findParticipantSession } from '../studies/join-study';
import type { Auth } from './create-auth';

import type { Actor } from './actor';

export type { Actor } from './actor';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the same-origin check of a cookie request may believe; the caller derives it from configuration. */
export interface SameOriginPolicy {
  /**
   * Whether `X-Forwarded-Host` names the host the browser addressed: only when the request's socket
   * is a listed proxy (`TRELLIS_TRUSTED_PROXIES`), like the rate limits' `X-Forwarded-For`. Otherwise
   * the client wrote it, and only `Host` counts.
   */
  trustsForwardedHost: boolean;
  /** Origins configuration names (the public URL, `TRELLIS_TRUSTED_ORIGINS`): always same-origin. */
  allowedOrigins: readonly string[];
}

export interface AuthRequest {
  method: string;
  headers: Headers;
  hasBody: boolean;
  sameOrigin: SameOriginPolicy;
  /**
   * The route reads a raw `application/zip` body (a project folder). Like JSON it is not a type a
   * cross-site form may send without a preflight this server never grants, so the CSRF guard holds.
   */
  acceptsZip?: boolean;
  /**
   * The route accepts a write from a participant who has finished (their Finish, called again,
   * answers the same completion). Any other write from a finished or timed-out participant is 403.
   */
  admitsFinishedParticipant?: boolean;
}

/**
 * Who is calling: a bearer token, else the better-auth session cookie.
 * Cookie-authenticated state changes must be same-origin and JSON (CSRF guard);
 * a bearer token is not sent by browsers on their own, so it needs neither.
 */
export async function authenticate(deps: { db: Db; auth: Auth }, request: AuthRequest): Promise<Actor> {
  const authorization = request.headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const token = match ? await findApiToken(deps.db, match[1]!) : null;
    if (!token) throw new AppError('unauthenticated', 'The API token is invalid or revoked');
    return { userId: token.userId, via: 'token', tokenId: token.tokenId };
  }
  const found = await deps.auth.api.getSession({ headers: request.headers });
  const isSafe = SAFE_METHODS.has(request.method.toUpperCase());
  if (!found) {
    const participant = await participantOf(deps.db, request.headers, !isSafe, request.admitsFinishedParticipant === true);
    if (!participant) throw new AppError('unauthenticated', 'Sign in or send an API token');
    if (!isSafe) assertSameOriginJson(request);
    return participant;
  }
  if (!isSafe) assertSameOriginJson(request);
  return { userId: found.user.id, via: 'session', sessionId: found.session.id };
}

/**
 * The participant a study session cookie stands for (a state change stamps their activity). Once
 * finished or timed out they write nothing more, except where the route admits a finished one.
 */
async function participantOf(db: Db, headers: Headers, touch: boolean, admitsFinished: boolean): Promise<Actor | null> {
  const token = readCookie(headers, PARTICIPANT_COOKIE);
  const session = token === undefined ? null : await findParticipantSession(db, token, { touch });
  if (!session) return null;
  const mayWrite = session.status === 'consented' || session.status === 'active' || (admitsFinished && session.status === 'finished');
  if (touch && !mayWrite) {
    throw AppError.forbidden(session.status === 'finished' ? 'You have finished this study' : 'Your time in this study is over');
  }
  return {
    kind: 'participant',
    userId: session.userId,
    via: 'participant',
    participant: { participantId: session.participantId, studyId: session.studyId, familyId: session.familyId },
  };
}

/**
 * A cookie's value as the request sent it, not URI-decoded: the tokens this server sets are base64url,
 * which encoding leaves unchanged, and decoding a malformed value (a stray `%`) would throw, a 500
 * where the cookie should simply not match any session.
 */
export function readCookie(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const CROSS_SITE = 'Cross-site requests are not allowed';

/**
 * A cookie request that changes state, with a body or without (DELETE, regenerate), must prove it
 * comes from a page of this origin: a matching `Origin`, or, where a browser sends none,
 * `Sec-Fetch-Site: same-origin`. A request that shows neither is refused: browsers send one or the
 * other on every such request, so only a forged or very old client lacks both.
 */
export function assertSameOriginJson(request: { headers: Headers; hasBody: boolean; sameOrigin: SameOriginPolicy; acceptsZip?: boolean }): void {
  const { headers } = request;
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin') throw AppError.forbidden(CROSS_SITE);
  const origin = headers.get('origin');
  if (origin) {
    if (!isSameOrigin(origin, headers, request.sameOrigin)) throw AppError.forbidden(CROSS_SITE);
  } else if (site !== 'same-origin') {
    throw AppError.forbidden('A signed-in request that changes something must come from the studio (Origin or Sec-Fetch-Site: same-origin)');
  }
  if (request.hasBody) {
    const type = headers.get('content-type') ?? '';
    const isZip = request.acceptsZip === true && /^application\/zip\b/i.test(type);
    if (!/^application\/json\b/i.test(type) && !isZip) {
      const wanted = request.acceptsZip ? 'application/zip' : 'application/json';
      throw new AppError('unsupported_media_type', `State-changing requests must send ${wanted}`);
    }
  }
}

function isSameOrigin(origin: string, headers: Headers, policy: SameOriginPolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `Origin: null` (sandboxed frames, file pages) and garbage
  }
  if (policy.allowedOrigins.some((allowed) => sameOriginOf(allowed) === url.origin)) return true;
  // Several proxies append to the list: the first entry is the host the browser addressed.
  const forwarded = policy.trustsForwardedHost ? headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwarded || headers.get('host');
  return host !== null && host.toLowerCase() === url.host;
}

function sameOriginOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}
