// What reaches the model on a later turn: a failed or stopped attempt, and the question whose only
// reply failed, stay in the chat but never in the model's request again — on the same path, and in
// the seed of a branch made after them. The provider's requests are recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaseMessage } from '@langchain/core/messages';
import { createBranch } from '../branching/create-branch';
import { stopTurn } from '../live/stop-turn';
import { readPathMessages } from '../branching/path-messages';
import { loadPathLineage } from '../lineage/load-lineage';
import { createHarness, type Harness } from '../testing/harness';
import { collect } from '../testing/test-harness';
import { sendTurn } from './send-turn';
import { FailOnDemandChatModel, HeldChatModel } from './test-models';

const texts = (request: readonly BaseMessage[] | undefined) => (request ?? []).map((m) => `${m.type}: ${m.text}`);

describe('a clean model context', () => {
  let h: Harness;
  const model = new FailOnDemandChatModel();
  beforeAll(async () => {
    h = await createHarness({ model: { instance: model } });
  });
  afterAll(() => h.deps.close());

  it('a failed reply and its question are not sent on the next turn, nor seeded into a later branch; the chat still shows them', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor, 'Clean context');
    await h.turn(actor, thread, 'First question');
    await h.turn(actor, thread, 'Second question FAIL');
    await h.turn(actor, thread, 'Third question');

    const third = texts(model.received.at(-1));
    expect(third.some((t) => t.includes('First question'))).toBe(true);
    expect(third.some((t) => t.includes('Second question'))).toBe(false);
    expect(third.at(-1)).toBe('human: Third question');

    // The chat keeps the failed question and its reply.
    const lineage = await loadPathLineage(h.deps.db, thread);
    const chat = await readPathMessages(h.deps.db, lineage, { from: 1, upTo: 3 });
    expect(chat.map((m) => `${m.role}:${m.status ?? ''}:${m.turn_index}`)).toContain('assistant:failed:2');
    expect(chat.some((m) => m.role === 'user' && m.content === 'Second question FAIL')).toBe(true);

    // A branch after the failed turn is seeded without it.
    const branch = (await createBranch(h.deps, actor, { threadId: thread, from_turn: 2 })).thread_id;
    await h.turn(actor, branch, 'On the branch');
    const onBranch = texts(model.received.at(-1));
    expect(onBranch.some((t) => t.includes('First question'))).toBe(true);
    expect(onBranch.some((t) => t.includes('Second question'))).toBe(false);
  });
});

describe('a stopped reply', () => {
  let h: Harness;
  const model = new HeldChatModel();
  beforeAll(async () => {
    h = await createHarness({ model: { instance: model } });
  });
  afterAll(() => h.deps.close());

  it('is not sent on the next turn, with its question', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor, 'Stopped');
    const stream = await sendTurn(h.deps, actor, { threadId: thread, content: 'Long question to stop' });
    const events = collect(stream);
    await model.started;
    await stopTurn(h.deps, actor, { threadId: thread, turn: 1 });
    await events;
    await h.deps.gate.followUpsOf([thread]);
    model.release();
    await h.turn(actor, thread, 'After the stop');
    const next = texts(model.received.at(-1));
    expect(next.some((t) => t.includes('Long question'))).toBe(false);
    expect(next.at(-1)).toBe('human: After the stop');
  });
});
