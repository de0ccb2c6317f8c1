import { sql } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import type { Db } from '@trellis/db';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export const RATE_LIMITS = {
  signIn: { limit: 10, windowMs: 60_000 },
  signUp: { limit: 10, windowMs: 60_000 },
  createToken: { limit: 20, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

/**
 * A fixed-window counter in Postgres, so the limit holds across every studio
 * process behind a load balancer. One atomic upsert per call.
 */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<void> {
  const rows = await db.execute<{ count: number; window_start: Date }>(sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${rule.windowMs / 1000})
                   then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${rule.windowMs / 1000})
                   then now() else rate_limits.window_start end
    returning count, window_start`);
  const row = rows[0];
  if (row && row.count > rule.limit) {
    const retryAfterMs = Math.max(0, new Date(row.window_start).getTime() + rule.windowMs - Date.now());
    throw new AppError('rate_limited', 'Too many attempts, try again later', {
      details: { retry_after_seconds: Math.ceil(retryAfterMs / 1000) },
    });
  }
}
