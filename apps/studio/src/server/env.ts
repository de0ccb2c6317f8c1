// The one place the studio reads its environment (STYLE §6).
import { EMBEDDED_PG_DEFAULT_PORT, resolveDataDir } from '@trellis/db';
import { z } from 'zod';

const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  TRELLIS_DATA_DIR: z.string().optional(),
  TRELLIS_PG_PORT: z.coerce.number().int().min(1).max(65535).default(EMBEDDED_PG_DEFAULT_PORT),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  BETTER_AUTH_SECRET: z.string().min(16).optional(),
  TRELLIS_BASE_URL: z.string().url().optional(),
  TRELLIS_TRUSTED_ORIGINS: z.string().optional(),
  /** Comma-separated proxy addresses whose X-Forwarded-For is believed (rate limits, session addresses). */
  TRELLIS_TRUSTED_PROXIES: z.string().optional(),
  /** Set by scripts/server.mjs: the socket address header it writes is present and trustworthy. */
  TRELLIS_SOCKET_ADDRESS_HEADER: z.literal('1').optional(),
  LLM_PROVIDER: z.enum(['offline', 'openai', 'anthropic']).default('offline'),
  LLM_BASE_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  /** Retries of a model call after a rate limit (honouring Retry-After), a 5xx or a lost connection. */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** No token for this long — the first, or the next — ends the reply with a timeout. */
  LLM_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** Slows the offline model's token stream (demos and tests that watch a stream arrive). */
  TRELLIS_OFFLINE_CHUNK_DELAY_MS: z.coerce.number().int().min(0).max(5000).default(0),
  TRELLIS_CONTEXT_MESSAGES: z.coerce.number().int().min(4).max(1000).default(40),
  TRELLIS_PENDING_GRACE_SECONDS: z.coerce.number().int().min(1).default(300),
  /** On SIGINT/SIGTERM, how long turns in flight may finish before they are interrupted. */
  TRELLIS_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** How often this process renews its instance heartbeat, and when another process counts it as gone. */
  TRELLIS_HEARTBEAT_SECONDS: z.coerce.number().min(0.1).max(60).default(3),
  TRELLIS_INSTANCE_STALE_SECONDS: z.coerce.number().min(1).max(3600).default(15),
  /** How long reading one uploaded transcript (inspect or import) may take before it is stopped. */
  TRELLIS_IMPORT_DEADLINE_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Checks every JSON response against its route contract even in a production build (the e2e tests set it). */
  TRELLIS_CHECK_RESPONSES: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof EnvSchema> & { dataDir: string; baseUrl: string };

/**
 * This code runs from Next.js's bundle (not from TypeScript source, as the route tests do). Next
 * replaces `process.env.NEXT_RUNTIME` at build time, so it is a build fact, not configuration, and
 * must be written exactly like this to be replaced.
 */
export const isNextBundle = process.env.NEXT_RUNTIME !== undefined;

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  // An empty variable means "unset" (DATABASE_URL= forces the embedded database).
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  // Resolved against the repository root: `next start` runs in apps/studio, the CLIs elsewhere.
  const dataDir = resolveDataDir(e.TRELLIS_DATA_DIR, process.cwd());
  const baseUrl = e.TRELLIS_BASE_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${e.PORT}`;
  cached = { ...e, dataDir, baseUrl };
  return cached;
}
