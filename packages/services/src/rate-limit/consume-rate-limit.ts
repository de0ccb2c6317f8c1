import { sql } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import type { Db } from '@trellis/db';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/**
 * Per address means per client address as resolved by `resolveClientAddress`
 * (the socket, or a trusted proxy's forwarded hop), never a client-sent header.
 */
export const RATE_LIMITS = {
  /** Wrong (or right) passwords for one account from one address. */
  signIn: { limit: 10, windowMs: 60_000 },
  /** Sign-in attempts from one address over every account. */
  signInPerAddress: { limit: 20, windowMs: 60_000 },
  signUpPerAddress: { limit: 20, windowMs: 60_000 },
  createToken: { limit: 20, windowMs: 60_000 },
  createTokenPerAddress: { limit: 20, windowMs: 60_000 },
  /** Reads through share links from one address (a page opens with a few; replay plays ~1 a second). */
  sharedReadsPerAddress: { limit: 300, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * A fixed-window counter in Postgres, so the limit holds across every studio
 * process behind a load balancer. One atomic upsert per call.
 */
export async function tryConsumeRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
  const rows = await db.execute<{ count: number; window_start: Date }>(sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${rule.windowMs / 1000})
                   then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${rule.windowMs / 1000})
                   then now() else rate_limits.window_start end
    returning count, window_start`);
  const row = rows[0];
  if (!row || row.count <= rule.limit) return { allowed: true, retryAfterSeconds: 0 };
  const retryAfterMs = Math.max(0, new Date(row.window_start).getTime() + rule.windowMs - Date.now());
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/** Like `tryConsumeRateLimit`, throwing a `rate_limited` AppError (429) when over the limit. */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<void> {
  const decision = await tryConsumeRateLimit(db, key, rule);
  if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
}

export function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', 'Too many attempts, try again later', {
    details: { retry_after_seconds: retryAfterSeconds },
  });
}
