// Integration-test harness: real PostgreSQL (the run's own database), the offline
// model, and helpers that drive whole turns the way the route does.
import { OfflineChatModel, setupCheckpointer } from '@trellis/agent';
import { createTestUser, testDatabaseUrl } from '@trellis/db/testing';
import type { TurnEvent } from '@trellis/domain';
import { createServiceDeps, type ServiceDeps, type ServiceDepsConfig } from '../deps';
import { CHECKPOINTER_SCHEMA } from '../migrate-all';
import { createConversation } from '../conversations/create-conversation';
import { sendTurn } from '../turns/send-turn';

let checkpointerReady: Promise<void> | undefined;

export interface Harness {
  deps: ServiceDeps & { close(): Promise<void> };
  model: OfflineChatModel;
  newUser(): Promise<{ userId: string }>;
  newConversation(actor: { userId: string }, title?: string): Promise<string>;
  /** Sends one message and drains the stream; returns every event. */
  turn(actor: { userId: string }, threadId: string, content: string): Promise<TurnEvent[]>;
}

export async function createHarness(overrides: Partial<ServiceDepsConfig> = {}): Promise<Harness> {
  const databaseUrl = testDatabaseUrl();
  checkpointerReady ??= setupCheckpointer({ connectionString: databaseUrl, schema: CHECKPOINTER_SCHEMA });
  await checkpointerReady;
  const model = new OfflineChatModel();
  const deps = createServiceDeps({ databaseUrl, model: { instance: model }, ...overrides });
  return {
    deps,
    model,
    newUser: async () => ({ userId: (await createTestUser({ db: deps.db, sql: deps.sql, close: async () => undefined })).id }),
    newConversation: async (actor, title) => (await createConversation(deps, actor, { title })).thread_id,
    turn: async (actor, threadId, content) => {
      const stream = await sendTurn(deps, actor, { threadId, content });
      const events: TurnEvent[] = [];
      for await (const event of stream) events.push(event);
      await stream.settled;
      return events;
    },
  };
}
