import { AppError } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { verifyApiToken } from '../tokens/api-tokens';
import type { Auth } from './create-auth';

export interface Actor {
  userId: string;
  via: 'session' | 'token';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who is calling: a bearer token, else the better-auth session cookie.
 * Cookie-authenticated state changes must be same-origin and JSON (CSRF guard);
 * a bearer token is not sent by browsers on their own, so it needs neither.
 */
export async function authenticate(
  deps: { db: Db; auth: Auth },
  request: { method: string; headers: Headers; hasBody: boolean },
): Promise<Actor> {
  const authorization = request.headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const userId = match ? await verifyApiToken(deps.db, match[1]!) : null;
    if (!userId) throw new AppError('unauthenticated', 'The API token is invalid or revoked');
    return { userId, via: 'token' };
  }
  const found = await deps.auth.api.getSession({ headers: request.headers });
  if (!found) throw new AppError('unauthenticated', 'Sign in or send an API token');
  if (!SAFE_METHODS.has(request.method.toUpperCase())) assertSameOriginJson(request);
  return { userId: found.user.id, via: 'session' };
}

export function assertSameOriginJson(request: { headers: Headers; hasBody: boolean }): void {
  const { headers } = request;
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') {
    throw AppError.forbidden('Cross-site requests are not allowed');
  }
  const origin = headers.get('origin');
  if (origin) {
    const host = headers.get('x-forwarded-host') ?? headers.get('host');
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (!host || originHost !== host) throw AppError.forbidden('Cross-site requests are not allowed');
  }
  if (request.hasBody) {
    const type = headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) {
      throw new AppError('unsupported_media_type', 'State-changing requests must send application/json');
    }
  }
}
