import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { getRestoreView } from '../branching/get-restore-view';
import { getWorkspace } from './get-workspace';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

/** A turn whose offline reply makes one artifact; answers what the tool said. */
async function makeArtifact(actor: { userId: string }, threadId: string, title: string): Promise<string | undefined> {
  const events = await h.turn(actor, threadId, `artifact: ${title} | about ${title}`);
  const tool = events.find((e): e is Extract<TurnEvent, { event: 'tool' }> => e.event === 'tool');
  return tool?.data.result;
}

async function numbers(actor: { userId: string }, threadId: string) {
  return (await getWorkspace(h.deps, actor, { threadId })).artifacts.map((a) => [a.number, a.title]);
}

describe('artifact numbers count within a family, not across the account', () => {
  it('starts every family at 1, whoever else made artifacts before', async () => {
    const actor = await h.newUser();
    const first = await h.newConversation(actor, 'First family');
    const second = await h.newConversation(actor, 'Second family');
    await makeArtifact(actor, first, 'Alpha');
    await makeArtifact(actor, first, 'Beta');
    expect(await makeArtifact(actor, second, 'Gamma')).toBe('Artifact 1 created: "Gamma" (note).');
    await makeArtifact(actor, second, 'Delta');

    expect(await numbers(actor, first)).toEqual([[1, 'Alpha'], [2, 'Beta']]);
    expect(await numbers(actor, second)).toEqual([[1, 'Gamma'], [2, 'Delta']]);
  });

  it("a branch keeps its inherited artifacts' numbers and continues the family's sequence", async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Family');
    for (const title of ['One', 'Two', 'Three']) await makeArtifact(actor, root, title);

    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 2 })).thread_id;
    expect(await numbers(actor, branch)).toEqual([[1, 'One'], [2, 'Two']]);
    // Number 3 is taken on the root path: the branch's first artifact is the family's fourth.
    expect(await makeArtifact(actor, branch, 'Branch own')).toBe('Artifact 4 created: "Branch own" (note).');
    const grandchild = (await createBranch(h.deps, actor, { threadId: branch, from_turn: 3 })).thread_id;
    await makeArtifact(actor, grandchild, 'Deeper');
    await makeArtifact(actor, root, 'Four');

    expect(await numbers(actor, branch)).toEqual([[1, 'One'], [2, 'Two'], [4, 'Branch own']]);
    expect(await numbers(actor, grandchild)).toEqual([[1, 'One'], [2, 'Two'], [4, 'Branch own'], [5, 'Deeper']]);
    expect(await numbers(actor, root)).toEqual([[1, 'One'], [2, 'Two'], [3, 'Three'], [6, 'Four']]);
    // A past step shows the numbers the live rows carry.
    const past = await getRestoreView(h.deps, actor, { threadId: root, turn: 2 });
    expect(past.workspace.artifacts.map((a) => a.number)).toEqual([1, 2]);
  });
});
