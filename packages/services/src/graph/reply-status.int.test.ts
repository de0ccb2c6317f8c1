import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineChatModel } from '@trellis/agent';
import type { FamilyGraph } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { collect, createTestDeps, type TestDeps } from '../testing/test-harness';
import { sendTurn } from '../turns/send-turn';
import { FailingChatModel } from '../turns/test-models';
import { getFamilyGraph } from './get-family-graph';

let h: Harness;
let slow: TestDeps;
let failing: TestDeps;
beforeAll(async () => {
  h = await createHarness();
  slow = createTestDeps(new OfflineChatModel({ chunkDelayMs: 25 }));
  failing = createTestDeps(new FailingChatModel(2));
});
afterAll(() => Promise.all([h.deps.close(), slow.close(), failing.close()]));

function statusOf(graph: FamilyGraph, turnIndex: number) {
  const node = graph.nodes.find((n) => n.thread_id === graph.thread_id && n.turn_index === turnIndex);
  return node && { reply_status: node.reply_status, reply_preview: node.reply_preview };
}

describe('graph nodes carry how their reply ended (reply_status)', () => {
  it('reads complete, stopped (the client went away), failed, interrupted (the server stopped) and null while none', async () => {
    const actor = await h.newUser();
    const threadId = await h.newConversation(actor, 'Reply states');
    await h.turn(actor, threadId, 'one');

    // Stopped before any text: the user pressed Stop at once.
    const stop = new AbortController();
    stop.abort();
    await collect(await sendTurn(h.deps, actor, { threadId, content: 'two', signal: stop.signal }));

    await collect(await sendTurn(failing, actor, { threadId, content: 'three' }));

    // In flight: the step exists, its reply does not yet.
    const running = await sendTurn(slow, actor, { threadId, content: 'four' });
    const events = running[Symbol.asyncIterator]();
    for (let e = await events.next(); !e.done && e.value.event !== 'token'; e = await events.next());
    const midway = await getFamilyGraph(h.deps, actor, { threadId });
    expect(statusOf(midway, 4)).toEqual({ reply_status: null, reply_preview: null });

    // The server stops while it streams.
    await slow.gate.drain(0);
    await running.settled;

    const graph = await getFamilyGraph(h.deps, actor, { threadId });
    expect(statusOf(graph, 1)?.reply_status).toBe('complete');
    expect(statusOf(graph, 2)).toEqual({ reply_status: 'stopped', reply_preview: '' });
    expect(statusOf(graph, 3)?.reply_status).toBe('failed');
    expect(statusOf(graph, 4)?.reply_status).toBe('interrupted');
  });
});
