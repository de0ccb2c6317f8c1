// Two studio processes (two deps objects, separate pools) sending to one thread
// at the same moment, many times: no turn is ever lost, each race either
// serializes or refuses with turn_in_progress, and the stores agree afterwards.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAppError } from '@trellis/domain';
import { collect, connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { sendTurn } from './send-turn';

const RACES = 200;
const admin = connectAdmin();
let processes: [TestDeps, TestDeps];

beforeAll(async () => {
  await prepareCheckpointer();
  processes = [createTestDeps(), createTestDeps()];
});
afterAll(async () => {
  await Promise.all(processes.map((d) => d.close()));
  await admin.close();
});

it(`loses no turn in ${RACES} races between two processes on one thread`, { timeout: 300_000 }, async () => {
  const actor = await newUser(admin);
  const threadId = await newThread(processes[0], actor);
  const accepted: string[] = [];
  let refused = 0;

  for (let race = 0; race < RACES; race++) {
    const results = await Promise.allSettled(
      processes.map(async (deps, p) => {
        const content = `race ${race} from process ${p}`;
        const events = await collect(await sendTurn(deps, actor, { threadId, content }));
        expect(events.at(-1)?.event).toBe('done');
        return { content, turnIndex: events[0]?.event === 'turn' ? events[0].data.turn_index : -1 };
      }),
    );
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(isAppError(r.reason) && r.reason.code).toBe('turn_in_progress');
        refused++;
      }
    }
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const w of won.sort((a, b) => a.turnIndex - b.turnIndex)) accepted.push(w.content);
  }

  const n = accepted.length;
  expect(n + refused).toBe(2 * RACES);
  const [conversation] = await admin.db.execute<{ turn_index: number; message_count: number; lease_owner: string | null }>(
    sql`select turn_index, message_count, lease_owner from conversations where thread_id = ${threadId}`,
  );
  expect(conversation).toEqual({ turn_index: n, message_count: 2 * n, lease_owner: null });

  const snapshots = await admin.db.execute<{ turn_index: number }>(
    sql`select turn_index from workspace_snapshots where thread_id = ${threadId} order by turn_index`,
  );
  expect(snapshots.map((s) => s.turn_index)).toEqual(Array.from({ length: n }, (_, i) => i + 1));

  const messages = await admin.db.execute<{ turn_index: number; role: string; status: string; content: string }>(
    sql`select turn_index, role, status, content from messages where thread_id = ${threadId} order by turn_index, seq`,
  );
  expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(accepted);
  expect(messages.map((m) => `${m.turn_index}:${m.role}:${m.status}`)).toEqual(
    accepted.flatMap((_, i) => [`${i + 1}:user:complete`, `${i + 1}:assistant:complete`]),
  );

  // The agent's working context saw every accepted turn, in order (the budget keeps the newest ones).
  const state = await processes[1].checkpointer.getTuple({ configurable: { thread_id: threadId } });
  const context = (state?.checkpoint.channel_values.messages ?? []) as { type?: string; getType?: () => string; content: unknown }[];
  const humans = context
    .filter((m) => (m.getType?.() ?? m.type) === 'human')
    .map((m) => String(m.content));
  expect(humans.length).toBeGreaterThan(0);
  expect(accepted.slice(-humans.length)).toEqual(humans);
});
