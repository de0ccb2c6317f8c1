// Shared set-up of the services' integration tests: real Postgres (the int
// project's database), the checkpointer's tables, service deps on their own
// pools, and unique users per test.
import { sql } from 'drizzle-orm';
import { OfflineChatModel, setupCheckpointer, type createAgent } from '@trellis/agent';
import type { TurnEvent } from '@trellis/domain';
import { connectTestDb, createTestUser, testDatabaseUrl } from '@trellis/db/testing';
import type { DbHandle } from '@trellis/db';
import { createServiceDeps, type ServiceDeps } from '../deps';
import { CHECKPOINTER_SCHEMA } from '../migrate-all';
import { createConversation } from '../conversations/create-conversation';
import type { TurnStream } from '../turns/send-turn';

export type ChatModel = Parameters<typeof createAgent>[0]['model'];
export type TestDeps = ServiceDeps & { close(): Promise<void> };

let checkpointerReady: Promise<void> | undefined;

export function prepareCheckpointer(): Promise<void> {
  checkpointerReady ??= setupCheckpointer({ connectionString: testDatabaseUrl(), schema: CHECKPOINTER_SCHEMA });
  return checkpointerReady;
}

/** Service deps as one studio process has them: their own pools, the given model. */
export function createTestDeps(
  model: ChatModel = new OfflineChatModel(),
  poolSize = 5,
  options: Pick<Parameters<typeof createServiceDeps>[0], 'presence' | 'onQuery'> = {},
): TestDeps {
  return createServiceDeps({ databaseUrl: testDatabaseUrl(), model: { instance: model }, poolSize, ...options });
}

/**
 * Service deps that count the statements they send: `statementsOf(run)` answers how many `run` sent.
 * A connection reads its types with its first statement (postgres.js, once per connection), so one
 * is sent before any count.
 */
export async function createStatementProbe(poolSize = 1): Promise<{ probe: TestDeps; statementsOf: (run: () => Promise<unknown>) => Promise<number> }> {
  let sent = 0;
  const probe = createTestDeps(undefined, poolSize, { onQuery: () => void (sent += 1) });
  await probe.db.execute(sql`select 1`);
  const statementsOf = async (run: () => Promise<unknown>) => {
    const before = sent;
    await run();
    return sent - before;
  };
  return { probe, statementsOf };
}

export function connectAdmin(): DbHandle {
  return connectTestDb(3);
}

export async function newUser(admin: DbHandle): Promise<{ userId: string }> {
  const { id } = await createTestUser(admin);
  return { userId: id };
}

export async function newThread(deps: TestDeps, actor: { userId: string }, title?: string): Promise<string> {
  const conversation = await createConversation(deps, actor, title === undefined ? {} : { title });
  return conversation.thread_id;
}

/** Reads a turn's events to the end. */
export async function collect(stream: TurnStream): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of stream) events.push(event);
  await stream.settled;
  return events;
}
