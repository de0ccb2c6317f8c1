import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { account, session, user, verification, type Db } from '@trellis/db';

export interface AuthConfig {
  db: Db;
  secret: string;
  baseUrl: string;
  trustedOrigins: string[];
}

/** better-auth with email + password; sessions live in Postgres. */
export function createAuth(config: AuthConfig) {
  return betterAuth({
    database: drizzleAdapter(config.db, { provider: 'pg', schema: { user, session, account, verification } }),
    secret: config.secret,
    baseURL: config.baseUrl,
    trustedOrigins: config.trustedOrigins,
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8 },
    // Sign-in is rate limited by the Postgres limiter shared by every studio process.
    rateLimit: { enabled: false },
    advanced: { database: { generateId: () => randomUUID() } },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
