import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationSchema } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { getFamilyGraph } from '../graph/get-family-graph';
import { editTurn } from '../siblings/edit-turn';
import { regenerateTurn } from '../siblings/regenerate-turn';
import { importTranscript } from '../transcripts/import-transcript';
import { threeLeafSession } from '../transcripts/fixtures/qwen-sessions';
import { getConversation } from './get-conversation';
import { listConversations } from './list-conversations';
import { updateConversation } from './update-conversation';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

async function drain(events: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of events) void _;
}

async function titleOf(actor: { userId: string }, threadId: string): Promise<string> {
  return (await getConversation(h.deps, actor, { threadId })).title;
}

describe('default titles: every path has its own name', () => {
  it('a new branch is named by its first message, an edit sibling by the edited message, a regenerate sibling by its step', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'Let us write a blog post about bees');
    await h.turn(actor, root, 'Make it shorter');
    expect(await titleOf(actor, root)).toBe('Let us write a blog post about bees');

    const continued = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    // until its first message it carries its parent's name
    expect(await titleOf(actor, continued.thread_id)).toBe('Let us write a blog post about bees');
    await h.turn(actor, continued.thread_id, `Now focus on swarming behaviour ${'and more '.repeat(20)}`);
    const continuedTitle = await titleOf(actor, continued.thread_id);
    expect(continuedTitle.startsWith('Now focus on swarming behaviour')).toBe(true);
    expect(continuedTitle.length).toBeLessThanOrEqual(61);

    const edited = await editTurn(h.deps, actor, { threadId: root, turn: 2, content: 'Make it funnier' });
    await h.turn(actor, edited.thread_id, 'Make it funnier');
    expect(await titleOf(actor, edited.thread_id)).toBe('Make it funnier');

    const regenerated = await regenerateTurn(h.deps, actor, { threadId: root, turn: 2 });
    await drain(regenerated);
    expect(await titleOf(actor, regenerated.threadId)).toBe('Regenerated at step 2');
    // a second and a third regeneration of the same step each get a name of their own
    const again = await regenerateTurn(h.deps, actor, { threadId: root, turn: 2 });
    await drain(again);
    const third = await regenerateTurn(h.deps, actor, { threadId: root, turn: 2 });
    await drain(third);
    expect(await titleOf(actor, again.threadId)).toBe('Regenerated at step 2 (2)');
    expect(await titleOf(actor, third.threadId)).toBe('Regenerated at step 2 (3)');
    // the list says which paths are regenerations, so the history can fold them into their step
    const listed = (await listConversations(h.deps, actor)).conversations;
    expect(listed.find((c) => c.thread_id === regenerated.threadId)?.branch_reason).toBe('regenerate');
    expect(listed.find((c) => c.thread_id === edited.thread_id)?.branch_reason).toBe('edit');
    expect(listed.find((c) => c.thread_id === root)?.branch_reason).toBeNull();

    // the root keeps its name, and later messages rename nothing
    await h.turn(actor, continued.thread_id, 'Another message');
    expect(await titleOf(actor, continued.thread_id)).toBe(continuedTitle);
    expect(await titleOf(actor, root)).toBe('Let us write a blog post about bees');
  });

  it('a title made from a markdown first message is plain text', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'append: ## 3. Findings and **open** questions\n\nThe body.');
    expect(await titleOf(actor, root)).toBe('3. Findings and open questions');
  });

  it('a title the user gave a branch before its first message stays', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'Plan a garden');
    const branch = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    await updateConversation(h.deps, actor, { threadId: branch.thread_id, title: 'Herbs only' });
    await h.turn(actor, branch.thread_id, 'Only herbs please');
    expect(await titleOf(actor, branch.thread_id)).toBe('Herbs only');
  });

  it('an imported leaf is named by its first prompt after the fork', async () => {
    const actor = await h.newUser();
    const result = await importTranscript(h.deps, actor, { content: threeLeafSession(), filename: 'garden.jsonl' });
    const titles = await Promise.all(result.conversations.map((c) => titleOf(actor, c.thread_id)));
    expect(titles).toEqual(['Garden plan', 'How often should I water them?', 'Which herbs grow in shade?']);
  });
});

describe('star and archive', () => {
  async function family(actor: { userId: string }) {
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'one');
    await h.turn(actor, root, 'two');
    const archived = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, archived, 'archived path');
    const under = (await createBranch(h.deps, actor, { threadId: archived, from_turn: 2 })).thread_id;
    await h.turn(actor, under, 'under the archived path');
    const kept = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, kept, 'kept path');
    return { root, archived, under, kept };
  }

  it('round-trips starred and archived through PATCH and the list, with the contract shape', async () => {
    const actor = await h.newUser();
    const { root } = await family(actor);
    const starred = await updateConversation(h.deps, actor, { threadId: root, starred: true });
    expect(ConversationSchema.parse(starred)).toEqual(starred);
    expect(starred).toMatchObject({ starred: true, archived: false });
    const listed = (await listConversations(h.deps, actor)).conversations.find((c) => c.thread_id === root);
    expect(listed).toMatchObject({ starred: true, archived: false });
    const unstarred = await updateConversation(h.deps, actor, { threadId: root, starred: false, title: 'Renamed' });
    expect(unstarred).toMatchObject({ starred: false, title: 'Renamed' });
  });

  it('an archived path and its subtree leave the list and the graph unless asked for, and come back on restore', async () => {
    const actor = await h.newUser();
    const { root, archived, under, kept } = await family(actor);
    await updateConversation(h.deps, actor, { threadId: archived, archived: true });

    const ids = async (includeArchived?: boolean) =>
      (await listConversations(h.deps, actor, { includeArchived })).conversations.map((c) => c.thread_id).sort();
    expect(await ids()).toEqual([root, kept].sort());
    expect(await ids(true)).toEqual([root, archived, under, kept].sort());
    // A page hides the same subtree (it looks for hidden threads in its own families only), and a
    // family whose root is archived is skipped rather than served as an empty page.
    const elsewhere = await h.newConversation(actor);
    await updateConversation(h.deps, actor, { threadId: elsewhere, archived: true });
    const paged = async (includeArchived?: boolean) =>
      (await listConversations(h.deps, actor, { includeArchived, limit: 1 })).conversations.map((c) => c.thread_id).sort();
    expect(await paged()).toEqual([root, kept].sort());
    expect(await paged(true)).toEqual([elsewhere]);
    const second = await listConversations(h.deps, actor, { includeArchived: true, limit: 1 });
    const next = await listConversations(h.deps, actor, { includeArchived: true, limit: 10, cursor: second.next_cursor ?? undefined });
    expect(next.conversations.map((c) => c.thread_id).sort()).toEqual([root, archived, under, kept].sort());
    const listedArchived = (await listConversations(h.deps, actor, { includeArchived: true })).conversations;
    expect(listedArchived.find((c) => c.thread_id === archived)?.archived).toBe(true);
    expect(listedArchived.find((c) => c.thread_id === under)?.archived).toBe(false);

    const graphThreads = async (includeArchived?: boolean) =>
      (await getFamilyGraph(h.deps, actor, { threadId: root, includeArchived })).threads.map((t) => t.thread_id).sort();
    expect(await graphThreads()).toEqual([root, kept].sort());
    expect(await graphThreads(true)).toEqual([root, archived, under, kept].sort());
    const full = await getFamilyGraph(h.deps, actor, { threadId: root, includeArchived: true });
    expect(full.threads.find((t) => t.thread_id === archived)).toMatchObject({ archived: true, starred: false });
    // archive is not delete: the path opens by id, with its own lineage in the graph
    expect((await getConversation(h.deps, actor, { threadId: under })).parent_thread_id).toBe(archived);
    const fromUnder = await getFamilyGraph(h.deps, actor, { threadId: under });
    expect(fromUnder.threads.map((t) => t.thread_id)).toEqual(expect.arrayContaining([root, archived, under]));
    // and labels never change when a path is archived
    const hidden = await getFamilyGraph(h.deps, actor, { threadId: root });
    const labelOf = new Map(full.nodes.map((n) => [n.id, n.label]));
    for (const node of hidden.nodes) expect(node.label).toBe(labelOf.get(node.id));

    await updateConversation(h.deps, actor, { threadId: archived, archived: false });
    expect(await ids()).toEqual([root, archived, under, kept].sort());
    expect(await graphThreads()).toEqual([root, archived, under, kept].sort());
  });

  it('archiving, restoring or starring a path keeps its “updated” time; a rename moves it', async () => {
    const actor = await h.newUser();
    const { root, archived } = await family(actor);
    const before = await getConversation(h.deps, actor, { threadId: archived });
    const put = await updateConversation(h.deps, actor, { threadId: archived, archived: true });
    expect(put.archived).toBe(true);
    expect(put.updated_at).toBe(before.updated_at);
    const back = await updateConversation(h.deps, actor, { threadId: archived, archived: false });
    expect(back.updated_at).toBe(before.updated_at);
    const starred = await updateConversation(h.deps, actor, { threadId: archived, starred: true });
    expect(starred.updated_at).toBe(before.updated_at);
    const listed = (await listConversations(h.deps, actor)).conversations.find((c) => c.thread_id === archived);
    expect(listed).toMatchObject({ archived: false, starred: true, updated_at: before.updated_at });
    const renamed = await updateConversation(h.deps, actor, { threadId: archived, title: 'A new name' });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    // the root, untouched, is unchanged too
    expect((await getConversation(h.deps, actor, { threadId: root })).branch_reason).toBeNull();
  });

  it('someone else cannot star or archive a path', async () => {
    const actor = await h.newUser();
    const stranger = await h.newUser();
    const root = await h.newConversation(actor);
    await expect(updateConversation(h.deps, stranger, { threadId: root, archived: true })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
