// A compact harness over test-harness.ts for tests that drive whole flows: deps
// with a recording offline model, fresh users and threads, and whole turns.
import { OfflineChatModel } from '@trellis/agent';
import { testDatabaseUrl } from '@trellis/db/testing';
import type { TurnEvent } from '@trellis/domain';
import { createServiceDeps, type ServiceDepsConfig } from '../deps';
import { sendTurn } from '../turns/send-turn';
import { collect, connectAdmin, newThread, newUser, prepareCheckpointer, type TestDeps } from './test-harness';

export interface Harness {
  deps: TestDeps;
  model: OfflineChatModel;
  newUser(): Promise<{ userId: string }>;
  newConversation(actor: { userId: string }, title?: string): Promise<string>;
  /** Sends one message and drains the stream; returns every event. */
  turn(actor: { userId: string }, threadId: string, content: string): Promise<TurnEvent[]>;
}

export async function createHarness(overrides: Partial<ServiceDepsConfig> = {}): Promise<Harness> {
  await prepareCheckpointer();
  const model = new OfflineChatModel();
  const deps = createServiceDeps({ databaseUrl: testDatabaseUrl(), model: { instance: model }, ...overrides });
  const admin = connectAdmin();
  return {
    deps: { ...deps, close: async () => void (await Promise.all([deps.close(), admin.close()])) },
    model,
    newUser: () => newUser(admin),
    newConversation: (actor, title) => newThread(deps, actor, title),
    // Read to the end, and what the turn leaves for after its `done` (the step summary) finished too.
    turn: async (actor, threadId, content) => {
      const events = await collect(await sendTurn(deps, actor, { threadId, content }));
      await deps.gate.followUpsOf([threadId]);
      return events;
    },
  };
}
