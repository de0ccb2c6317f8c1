// A turn cut by the drain: its stream ends with a `done` that says `interrupted` (and why), and the
// work that follows the turn (the step change summary) is drained too, so stopping the database
// right after the drain loses no write and logs no error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OfflineChatModel } from '@trellis/agent';
import type { TurnEvent } from '@trellis/domain';
import { testDatabaseUrl } from '@trellis/db/testing';
import { createServiceDeps, type Logger } from '../deps';
import { createHarness, type Harness } from '../testing/harness';
import { sendTurn } from './send-turn';
import { SHUTDOWN_REASON } from './turn-gate';

interface LogRecord {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

function recordingLogger(records: LogRecord[]): Logger {
  const at = (level: LogRecord['level']) => (obj: object, msg?: string) => void records.push({ level, obj, msg });
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

describe('the drain and a turn it cuts', () => {
  it('ends the stream with done {status: interrupted, reason}, stores the step summary, and logs no write error when the database stops right after', async () => {
    const actor = await h.newUser();
    const threadId = await h.newConversation(actor, 'Drained');
    await h.turn(actor, threadId, 'doc: # Plan\n\nFirst draft');

    const records: LogRecord[] = [];
    // One studio process: its own pools, a model slow enough to be cut mid-reply.
    const process = createServiceDeps({
      databaseUrl: testDatabaseUrl(),
      model: { instance: new OfflineChatModel({ chunkDelayMs: 40 }) },
      logger: recordingLogger(records),
      poolSize: 3,
    });
    const running = await sendTurn(process, actor, { threadId, content: 'append: a second paragraph that the model will not finish streaming' });
    const events: TurnEvent[] = [];
    const iterator = running[Symbol.asyncIterator]();
    for (let e = await iterator.next(); !e.done; e = await iterator.next()) {
      events.push(e.value);
      if (e.value.event === 'token') break;
    }

    // SIGTERM with no grace, then the database stops the moment the drain returns.
    const report = await process.gate.drain(0);
    await process.close();
    for (let e = await iterator.next(); !e.done; e = await iterator.next()) events.push(e.value);

    expect(report.aborted).toBe(1);
    const last = events.at(-1)!;
    expect(last).toEqual({
      event: 'done',
      data: { turn_index: running.turnIndex, message_id: expect.any(String), status: 'interrupted', reason: SHUTDOWN_REASON },
    });
    expect((await running.settled).status).toBe('interrupted');
    expect(records.filter((r) => r.level !== 'info')).toEqual([]);
    const stored = await h.deps.db.execute<{ turn_index: number }>(
      sql`select turn_index from step_changes where thread_id = ${threadId} and turn_index = ${running.turnIndex}`,
    );
    expect([...stored].map((r) => r.turn_index)).toEqual([running.turnIndex]);
  });
});
