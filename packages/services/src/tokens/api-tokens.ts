import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import { apiTokens, type Db } from '@trellis/db';
import { consumeRateLimit, RATE_LIMITS } from '../rate-limit/consume-rate-limit';
import type { Actor } from '../auth/actor';
import type { FamilyHub } from '../live/family-hub';
import { hashSecretToken } from '../auth/secret-token';

const TOKEN_PREFIX = 'trl_';

/**
 * Tokens are managed from a signed-in browser only: a token that could mint
 * tokens would outlive its own revocation through its children.
 */
function assertCookieSession(actor: Actor): void {
  if (actor.via !== 'session') throw AppError.forbidden('API tokens can only be created and listed from a signed-in session');
}

/** Creates a personal API token; the secret is returned once and stored only as a hash. */
export async function createApiToken(db: Db, actor: Actor, name: string, clientAddress: string) {
  assertCookieSession(actor);
  const userId = actor.userId;
  await consumeRateLimit(db, `create-token:address:${clientAddress}`, RATE_LIMITS.createTokenPerAddress);
  await consumeRateLimit(db, `create-token:${userId}`, RATE_LIMITS.createToken);
  const secret = `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
  const [row] = await db
    .insert(apiTokens)
    .values({ userId, name, prefix: secret.slice(0, 8), tokenHash: hashSecretToken(secret) })
    .returning({ id: apiTokens.id, name: apiTokens.name });
  if (!row) throw new AppError('internal', 'token was not stored');
  return { id: row.id, name: row.name, token: secret };
}

export async function listApiTokens(db: Db, actor: Actor) {
  assertCookieSession(actor);
  const userId = actor.userId;
  const rows = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Revokes a token; the event streams it holds end at once, on every studio process. */
export async function revokeApiToken(deps: { db: Db; family: Pick<FamilyHub, 'endStreams'> }, userId: string, id: string): Promise<void> {
  const { db } = deps;
  if (!/^[0-9a-f-]{36}$/.test(id)) throw AppError.notFound('Token');
  const [row] = await db.select({ userId: apiTokens.userId }).from(apiTokens).where(eq(apiTokens.id, id));
  if (!row) throw AppError.notFound('Token');
  if (row.userId !== userId) throw AppError.forbidden();
  await db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, id));
  await deps.family.endStreams({ tokenId: id }, 'access_revoked');
}

/** The user a bearer token belongs to, or null when it is unknown or revoked. */
export async function verifyApiToken(db: Db, secret: string): Promise<string | null> {
  return (await findApiToken(db, secret))?.userId ?? null;
}

/** A live bearer token: its id and its user, or null when it is unknown or revoked. */
export async function findApiToken(db: Db, secret: string): Promise<{ userId: string; tokenId: string } | null> {
  if (!secret.startsWith(TOKEN_PREFIX)) return null;
  const [row] = await db
    .update(apiTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(apiTokens.tokenHash, hashSecretToken(secret)), isNull(apiTokens.revokedAt)))
    .returning({ userId: apiTokens.userId, tokenId: apiTokens.id });
  return row ?? null;
}

/** Revokes every live token of a user (after a password change). */
export async function revokeAllApiTokens(db: Db, userId: string): Promise<void> {
  await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
}
