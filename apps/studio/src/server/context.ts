// One set of service dependencies per studio process, created from what boot
// resolved (the database URL and the auth secret). Kept on globalThis because
// Next bundles instrumentation and route handlers separately.
import { randomUUID } from 'node:crypto';
import {
  startEventLoopWatch,
  createAuth,
  createServiceDeps,
  startStudioInstance,
  sweepPendingBranches,
  type Auth,
  type DrainReport,
  type ServiceDeps,
  type StudioInstance,
} from '@trellis/services';
import { describeModel, type ModelConfig } from '@trellis/agent';
import { env, isNextBundle } from './env';
import { logger } from './logger';
import { boot, setDrain } from './boot';

export interface AppContext {
  deps: ServiceDeps;
  auth: Auth;
  modelLabel: string;
  instance: StudioInstance;
  close(): Promise<void>;
}

const store = globalThis as typeof globalThis & { __trellisContext?: Promise<AppContext>; __trellisSweeper?: NodeJS.Timeout };

export function getContext(): Promise<AppContext> {
  store.__trellisContext ??= create();
  return store.__trellisContext;
}

async function create(): Promise<AppContext> {
  setDrain(drainContext);
  startEventLoopWatch({ logger });
  const { databaseUrl, authSecret, isEmbedded } = await boot();
  const e = env();
  const model = modelConfig();
  const deps = createServiceDeps({
    databaseUrl,
    model,
    contextMessages: e.TRELLIS_CONTEXT_MESSAGES,
    modelCalls: { maxRetries: e.LLM_MAX_RETRIES, timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000 },
    logger,
    instanceId: randomUUID(),
    transcriptJobs: { deadlineMs: e.TRELLIS_IMPORT_DEADLINE_MS, isBundled: isNextBundle },
    mergeJobs: { isBundled: isNextBundle },
    docxJobs: { isBundled: isNextBundle },
  });
  // Registered before any route sees the deps: a lease must never name an
  // instance other processes cannot see.
  const instance = await startStudioInstance(deps, {
    timing: { heartbeatMs: e.TRELLIS_HEARTBEAT_SECONDS * 1000, staleSeconds: e.TRELLIS_INSTANCE_STALE_SECONDS },
    singleProcess: isEmbedded,
  });
  // One LISTEN per process, from the start: a Stop pressed on a tab another process serves reaches
  // this process's turns over it, whether or not any tab subscribed here yet.
  deps.family.start().catch((error: unknown) => logger.warn({ err: error }, 'family channel: could not listen yet'));
  const origins = new Set([e.baseUrl, `http://127.0.0.1:${e.PORT}`, `http://localhost:${e.PORT}`]);
  for (const o of (e.TRELLIS_TRUSTED_ORIGINS ?? '').split(',').filter(Boolean)) origins.add(o.trim());
  const auth = createAuth({
    db: deps.db,
    secret: authSecret,
    baseUrl: e.baseUrl,
    trustedOrigins: [...origins],
  });
  return { deps, auth, modelLabel: describeModel(model), instance, close: () => deps.close() };
}

/**
 * The drain of a stopping process: refuse new turns, branches and imports, let
 * turns finish for `graceMs`, interrupt the rest (each stores its partial
 * reply and frees its thread), unregister, close the pools. Safe to call when
 * no request ever created the context.
 */
export async function drainContext(graceMs: number): Promise<DrainReport | null> {
  if (!store.__trellisContext) return null;
  const ctx = await store.__trellisContext;
  if (store.__trellisSweeper) clearInterval(store.__trellisSweeper);
  const report = await ctx.instance.drain(graceMs);
  await ctx.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the database pools failed'));
  return report;
}

function modelConfig(): ModelConfig {
  const e = env();
  switch (e.LLM_PROVIDER) {
    case 'offline':
      return { provider: 'offline', chunkDelayMs: e.TRELLIS_OFFLINE_CHUNK_DELAY_MS };
    case 'openai':
      return { provider: 'openai', baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL ?? 'gpt-4o-mini' };
    case 'anthropic':
      return {
        provider: 'anthropic',
        apiKey: e.ANTHROPIC_API_KEY ?? e.LLM_API_KEY ?? '',
        model: e.LLM_MODEL ?? 'claude-sonnet-4-5',
        baseUrl: e.LLM_BASE_URL,
      };
  }
}

/** Reclaims stale pending branches at start and then periodically. */
export function startSweeper(): void {
  if (store.__trellisSweeper) return;
  const run = async () => {
    try {
      const { deps } = await getContext();
      const swept = await sweepPendingBranches(deps, { olderThanSeconds: env().TRELLIS_PENDING_GRACE_SECONDS });
      if (swept > 0) logger.info({ swept }, 'reclaimed pending branches');
    } catch (error) {
      logger.error({ err: error }, 'pending branch sweep failed');
    }
  };
  void run();
  store.__trellisSweeper = setInterval(() => void run(), 60_000);
  store.__trellisSweeper.unref();
}
