// A reloaded tab on a path whose retry is running: the transcript names the running turn (so the
// studio follows it instead of showing the stopped attempt with Retry and Regenerate), and a tab on
// another process follows the running attempt to its end — never the stopped attempt stored before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineChatModel } from '@trellis/agent';
import type { TurnEvent } from '@trellis/domain';
import { listMessages } from '../lineage/list-messages';
import { retryTurn } from '../turns/retry-turn';
import { sendTurn } from '../turns/send-turn';
import { connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { followTurn } from './follow-turn';
import { stopTurn } from './stop-turn';

const admin = connectAdmin();
let a: TestDeps;
let b: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  a = createTestDeps(new OfflineChatModel({ chunkDelayMs: 30 }));
  b = createTestDeps(new OfflineChatModel({ chunkDelayMs: 30 }));
});
afterAll(async () => {
  await Promise.all([a, b].map((d) => d.close()));
  await admin.close();
});

async function untilToken(stream: AsyncIterable<TurnEvent>): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  while ((await iterator.next()).value?.event !== 'token');
  await iterator.return?.();
}

describe('a running retry seen from a reloaded tab', () => {
  it('the transcript says which turn runs, and another process follows the new attempt to its end', async () => {
    const actor = await newUser(admin);
    const threadId = await newThread(a, actor);
    const sent = await sendTurn(a, actor, { threadId, content: 'help' });
    await untilToken(sent);
    await stopTurn(a, actor, { threadId, turn: 1 });
    await sent.settled;
    expect((await listMessages(b, actor, { threadId, limit_turns: 25 })).running_turn).toBeNull();

    const retried = await retryTurn(a, actor, { threadId, turn: 1 });
    await untilToken(retried);
    const page = await listMessages(b, actor, { threadId, limit_turns: 25 });
    expect(page.running_turn).toBe(1);
    expect(page.messages.at(-1)).toMatchObject({ role: 'assistant', status: 'interrupted' });

    const events: TurnEvent[] = [];
    for await (const event of await followTurn(b, actor, { threadId, turn: 1, pollMs: 200 })) events.push(event);
    const outcome = await retried.settled;
    expect(outcome.status).toBe('complete');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', message_id: outcome.messageId } });
    expect((await listMessages(b, actor, { threadId, limit_turns: 25 })).running_turn).toBeNull();
  });
});
