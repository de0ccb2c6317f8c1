import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { createDb, type Db, type DbHandle } from '@trellis/db';
import { createAgent, createCheckpointer, createModel, modelSecrets, type ModelCallPolicy, type ModelConfig } from '@trellis/agent';
import type postgres from 'postgres';
import { createCheckpointerPool } from './checkpointer-pool';
import { CHECKPOINTER_SCHEMA } from './migrate-all';
import type { TranscriptJobOptions } from './transcripts/run-transcript-job';
import type { MergeJobOptions } from './workspace/stale-save/run-merge-job';
import type { WorkerJobOptions } from './jobs/job-worker';
import { TurnGate } from './turns/turn-gate';
import { FamilyHub } from './live/family-hub';
import { LiveTurns } from './live/live-turns';
import { PresenceWatch, type PresenceWatchOptions } from './presence/presence-watch';

import type { Logger } from './logger';

export type { Logger } from './logger';

/** Named points where tests inject failures into multi-phase operations. */
export type FaultPoint = 'branch.after-tx1' | 'branch.seed' | 'branch.tx2' | 'branch.hang-after-tx1';

export interface ServiceDeps {
  db: Db;
  sql: postgres.Sql;
  checkpointer: BaseCheckpointSaver;
  agent: ReturnType<typeof createAgent>;
  contextBudget: { maxMessages: number };
  logger: Logger;
  /** Refuses new turns, branches and imports while the process drains, and tracks the turns in flight. */
  gate: TurnGate;
  /** This process's one LISTEN on the family channel, fanned out to its event-stream subscribers. */
  family: FamilyHub;
  /** The turns this process runs, owned by the server (a request's stream is one subscriber). */
  liveTurns: LiveTurns;
  /** Tells this process's family streams who is here. */
  presence: PresenceWatch;
  /** The registered studio instance whose leases this process takes (null: TTL leases only). */
  instanceId: string | null;
  /** How transcript inspections and imports run off the request thread (deadline, bundled or source). */
  transcriptJobs: TranscriptJobOptions;
  /** How a stale document save's merge runs off the request thread (deadline, bundled or source). */
  mergeJobs: MergeJobOptions;
  /** How a Word export is built off the request thread (deadline, bundled or source). */
  docxJobs: WorkerJobOptions;
  /** Test-only hook: throws (or hangs) at the named point when armed. */
  fault?: (point: FaultPoint) => Promise<void>;
  /** Values never written to a log (the model's API key). */
  secrets: readonly string[];
  /** The models a study's condition may name: `offline` always, and the configured provider's model. */
  modelNames: readonly string[];
}

export interface ServiceDepsConfig {
  databaseUrl: string;
  /**
   * The configured model, or a model instance (tests); an instance given a `name` stands for a
   * provider's model of that name, with the offline model beside it for a condition that names it.
   */
  model: ModelConfig | { instance: Parameters<typeof createAgent>[0]['model']; name?: string };
  contextMessages?: number;
  logger?: Logger;
  poolSize?: number;
  /** Sees every SQL statement the service layer sends (tests count round trips). */
  onQuery?: (query: string) => void;
  fault?: ServiceDeps['fault'];
  /** Names this process's studio instance on every lease it takes (register it with `startStudioInstance`). */
  instanceId?: string;
  /** Transcript jobs: their deadline, and whether this code runs bundled (default: from source, 30 s). */
  transcriptJobs?: TranscriptJobOptions;
  /** The presence window and how often this process re-reads its families' presence (tests shorten them). */
  presence?: PresenceWatchOptions;
  /** Stale-save merges: their deadline, and whether this code runs bundled (default: from source, 8 s). */
  mergeJobs?: MergeJobOptions;
  /** Word exports: their deadline, and whether this code runs bundled (default: from source, 30 s). */
  docxJobs?: WorkerJobOptions;
  /** Model call retries and timeout (LLM_MAX_RETRIES, LLM_TIMEOUT_SECONDS); the key is added from `model`. */
  modelCalls?: Partial<Omit<ModelCallPolicy, 'secrets'>>;
}

const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function createServiceDeps(config: ServiceDepsConfig): ServiceDeps & { close(): Promise<void> } {
  const handle: DbHandle = createDb({ url: config.databaseUrl, max: config.poolSize ?? 10, onQuery: config.onQuery });
  const logger = config.logger ?? silentLogger;
  const pool = createCheckpointerPool(config.databaseUrl, { max: config.poolSize ?? 10, logger });
  const checkpointer = createCheckpointer({ pool, schema: CHECKPOINTER_SCHEMA });
  const model = 'instance' in config.model ? config.model.instance : createModel(config.model);
  const contextBudget = { maxMessages: config.contextMessages ?? 40 };
  const secrets = 'instance' in config.model ? [] : modelSecrets(config.model);
  const modelName = 'instance' in config.model ? config.model.name : config.model.provider === 'offline' ? undefined : config.model.model;
  const agent = createAgent({
    checkpointer,
    model,
    contextBudget,
    modelCalls: { ...config.modelCalls, secrets },
    // Beside a provider, a study's condition may name the offline model: it answers that condition's turns.
    ...(modelName !== undefined && { modelName, alternateModels: { offline: createModel({ provider: 'offline' }) } }),
  });
  const family = new FamilyHub({ databaseUrl: config.databaseUrl, db: handle.db, logger });
  const liveTurns = new LiveTurns(family, logger);
  const presence = new PresenceWatch(family, handle.db, logger, config.presence);
  return {
    db: handle.db,
    sql: handle.sql,
    checkpointer,
    agent,
    contextBudget,
    logger,
    gate: new TurnGate(),
    family,
    liveTurns,
    presence,
    instanceId: config.instanceId ?? null,
    transcriptJobs: config.transcriptJobs ?? {},
    mergeJobs: config.mergeJobs ?? {},
    docxJobs: config.docxJobs ?? {},
    fault: config.fault,
    secrets,
    modelNames: ['offline', ...(modelName === undefined ? [] : [modelName])],
    close: async () => {
      presence.close();
      await family.close();
      await Promise.all([handle.close(), pool.end()]);
    },
  };
}
