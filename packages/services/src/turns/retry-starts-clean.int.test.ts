// A retry (and a regenerate) of a stopped reply starts from the workspace its turn began with:
// what the stopped attempt wrote is taken back in the transaction that starts the new attempt, so
// the document and the todos equal one complete run of the same message — not the stopped
// attempt's writes plus a whole run's. The stopped attempt's changes stay in the log, marked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineChatModel } from '@trellis/agent';
import { listChanges } from '../changes/list-changes';
import { replayChange } from '../replay/replay-change';
import { regenerateTurn } from '../siblings/regenerate-turn';
import { createPreference } from '../workspace/create-preference';
import { getWorkspace } from '../workspace/get-workspace';
import { patchWorkspace } from '../workspace/patch-workspace';
import { collect, connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { retryTurn } from './retry-turn';
import { sendTurn } from './send-turn';

const admin = connectAdmin();
let deps: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  // Slow enough that the stop lands while the tools run, one write at a time.
  deps = createTestDeps(new OfflineChatModel({ chunkDelayMs: 5 }));
});
afterAll(async () => {
  await deps.close();
  await admin.close();
});

const TODOS = Array.from({ length: 24 }, (_, i) => `Read source ${i + 1}`);
const MESSAGE = ['append: The opening paragraph of the review.', ...TODOS.map((t) => `todo: ${t}`)].join('\n');
const STOP_AFTER_TOOLS = 4;

/** Sends `content` and stops the turn (as Stop does) once `tools` of its tool writes streamed. */
async function sendAndStopAfter(actor: { userId: string }, threadId: string, content: string, tools: number): Promise<void> {
  const stop = new AbortController();
  const turn = await sendTurn(deps, actor, { threadId, content, signal: stop.signal });
  let seen = 0;
  for await (const event of turn) {
    if (event.event === 'tool' && ++seen === tools) stop.abort();
  }
  expect(await turn.settled).toMatchObject({ status: 'interrupted' });
}

async function stateOf(actor: { userId: string }, threadId: string) {
  const live = await getWorkspace(deps, actor, { threadId });
  return { document: live.document.content, todos: live.todos.map((t) => [t.text, t.depth, t.done]), preferences: live.preferences.map((p) => p.text) };
}

/** The same message answered once, completely, on a thread that starts where the other did. */
async function oneCompleteRun(actor: { userId: string }, opening: string) {
  const threadId = await newThread(deps, actor);
  await collect(await sendTurn(deps, actor, { threadId, content: opening }));
  await collect(await sendTurn(deps, actor, { threadId, content: MESSAGE }));
  return stateOf(actor, threadId);
}

describe('retry after Stop', () => {
  it('equals one complete run of the message: the stopped attempt’s writes are taken back, not repeated', async () => {
    const actor = await newUser(admin);
    const opening = 'append: # Review\ntodo: Frame the question';
    const threadId = await newThread(deps, actor);
    await collect(await sendTurn(deps, actor, { threadId, content: opening }));
    await sendAndStopAfter(actor, threadId, MESSAGE, STOP_AFTER_TOOLS);
    const stopped = await stateOf(actor, threadId);
    // The stop landed mid-way: some of the attempt's todos are there, not all.
    expect(stopped.todos.length).toBeGreaterThan(1);
    expect(stopped.todos.length).toBeLessThan(1 + TODOS.length);
    expect(stopped.document).toContain('The opening paragraph of the review.');

    const events = await collect(await retryTurn(deps, actor, { threadId, turn: 2 }));
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete' } });

    const retried = await stateOf(actor, threadId);
    expect(retried).toEqual(await oneCompleteRun(actor, opening));
    expect(retried.document.split('The opening paragraph of the review.')).toHaveLength(2);
    expect(retried.todos).toHaveLength(1 + TODOS.length);

    // The stopped attempt's changes stay in the log, marked reverted; the retry's take-back follows them.
    const { changes } = await listChanges(deps, actor, { threadId, limit: 500 });
    const ofStep2 = changes.filter((c) => c.turn === 2);
    const stoppedAttempt = ofStep2.filter((c) => c.reverted);
    expect(stoppedAttempt.length).toBe(stopped.todos.length - 1 + 1); // its todos and its append
    expect(stoppedAttempt.every((c) => c.actor === 'agent')).toBe(true);
    const takeBack = ofStep2.filter((c) => c.via === 'retry');
    expect(takeBack.length).toBeGreaterThan(0);
    expect(Math.min(...takeBack.map((c) => c.seq))).toBeGreaterThan(Math.max(...stoppedAttempt.map((c) => c.seq)));
    // Replay still shows what the stopped attempt did, at its own change.
    const replayed = await replayChange(deps, actor, { threadId, seq: Math.max(...stoppedAttempt.map((c) => c.seq)) });
    expect(replayed.change.reverted).toBe(true);
    expect(replayed.workspace.todos).toHaveLength(stopped.todos.length);
  });

  it('keeps the person’s edits made after the stop, and takes back only the attempt’s', async () => {
    const actor = await newUser(admin);
    const opening = 'append: # Review\n\nFirst aim.';
    const threadId = await newThread(deps, actor);
    await collect(await sendTurn(deps, actor, { threadId, content: opening }));
    await sendAndStopAfter(actor, threadId, MESSAGE, STOP_AFTER_TOOLS);
    const live = await getWorkspace(deps, actor, { threadId });
    await patchWorkspace(deps, actor, {
      threadId,
      patch: { document: { content: live.document.content.replace('First aim.', 'First aim, sharpened by hand.'), base_version: live.document.version } },
    });
    await createPreference(deps, actor, { threadId, preference: { text: 'Cite every source' } });

    await collect(await retryTurn(deps, actor, { threadId, turn: 2 }));
    const retried = await stateOf(actor, threadId);
    const complete = await oneCompleteRun(actor, opening);
    expect(retried.document).toBe(complete.document.replace('First aim.', 'First aim, sharpened by hand.'));
    expect(retried.todos).toEqual(complete.todos);
    expect(retried.preferences).toEqual(['Cite every source']);
  });

  it('a regenerate of the stopped step starts from the same state (a sibling at the step before)', async () => {
    const actor = await newUser(admin);
    const opening = 'append: # Review\ntodo: Frame the question';
    const threadId = await newThread(deps, actor);
    await collect(await sendTurn(deps, actor, { threadId, content: opening }));
    await sendAndStopAfter(actor, threadId, MESSAGE, STOP_AFTER_TOOLS);
    const regenerated = await regenerateTurn(deps, actor, { threadId, turn: 2 });
    for await (const event of regenerated) void event;
    // The stream ends after `done`; the reply is stored by then.
    expect(await stateOf(actor, regenerated.threadId)).toEqual(await oneCompleteRun(actor, opening));
  });
});
