import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { account, session, user, verification, type Db } from '@trellis/db';
import { tryConsumeRateLimit, RATE_LIMITS, type RateLimitRule } from '../rate-limit/consume-rate-limit';
import { revokeAllApiTokens } from '../tokens/api-tokens';

export interface AuthConfig {
  db: Db;
  secret: string;
  baseUrl: string;
  trustedOrigins: string[];
}

/**
 * The request header that carries the resolved client address (see
 * `resolveClientAddress`). The studio's route handler overwrites it on every
 * request before better-auth sees it, so a client cannot choose its value.
 */
export const CLIENT_ADDRESS_HEADER = 'x-trellis-client-address';

const perWindow = (rule: RateLimitRule) => ({ window: rule.windowMs / 1000, max: rule.limit });

/** better-auth with email + password; sessions live in Postgres. */
export function createAuth(config: AuthConfig) {
  return betterAuth({
    database: drizzleAdapter(config.db, { provider: 'pg', schema: { user, session, account, verification } }),
    secret: config.secret,
    baseURL: config.baseUrl,
    trustedOrigins: config.trustedOrigins,
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8 },
    // better-auth's limiter keyed on the resolved client address and the path, with
    // its counters in the shared Postgres table (one atomic upsert per request), so
    // the limit holds across every studio process. The per-account sign-in limit
    // needs the email, which better-auth cannot key on: the auth route adds it.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': perWindow(RATE_LIMITS.signInPerAddress),
        '/sign-up/email': perWindow(RATE_LIMITS.signUpPerAddress),
        // Read on every page load; it checks nothing a guess could win.
        '/get-session': false,
      },
      customStorage: {
        consume: async (key, rule) => {
          const decision = await tryConsumeRateLimit(config.db, `auth:${key}`, { limit: rule.max, windowMs: rule.window * 1000 });
          return { allowed: decision.allowed, retryAfter: decision.allowed ? null : decision.retryAfterSeconds };
        },
      },
    },
    advanced: {
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    hooks: {
      // A changed password ends every other session, whatever the client asked for.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/change-password') return;
        const body = isObject(ctx.body) ? ctx.body : {};
        return { context: { body: { ...body, revokeOtherSessions: true } } };
      }),
      // ...and every API token: a leaked password must not leave a working token behind.
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/change-password') return;
        const returned = ctx.context.returned;
        if (!returned || isAPIError(returned) || returned instanceof Error) return;
        const userId = (returned as { user?: { id?: unknown } }).user?.id;
        if (typeof userId === 'string') await revokeAllApiTokens(config.db, userId);
      }),
    },
    telemetry: { enabled: false },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type Auth = ReturnType<typeof createAuth>;
