import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createBranch } from '../branching/create-branch';
import { applyItems } from '../apply/apply-items';
import { getWorkspace } from '../workspace/get-workspace';
import { getRestoreView } from '../branching/get-restore-view';
import { listMessages } from '../lineage/list-messages';
import { updateConversation } from '../conversations/update-conversation';
import { createShare, listShares, revokeShare, updateShare } from './manage-shares';
import { exportSharedDocument, getSharedView, listSharedMessages, replaySharedChange } from './read-shared';
import { copySharedPath } from './copy-shared';
import { acceptInvitation, createInvitation } from '../members/invitations';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };
const tokenOf = (url: string | null) => url!.replace(/^\/s\//, '');

/**
 * A family with a root path (steps 1–3) and a sibling branched at step 1 (its own step 2, with
 * words of its own), and an apply from the sibling onto the root at step 4: the sibling's text,
 * title and id must never reach a path link of the root.
 */
async function family(actor: Actor) {
  const root = await h.newConversation(actor, 'Shared review');
  await h.turn(actor, root, 'doc: # Review\n\nOpening paragraph by the agent.');
  await h.turn(actor, root, 'append: Second paragraph, root only.');
  await h.turn(actor, root, 'todo: Check the sources');
  const sibling = await createBranch(h.deps, actor, { threadId: root, from_turn: 1, reason: 'continue', title: 'Secret sibling path' });
  await h.turn(actor, sibling.thread_id, 'append: ZEBRA-UNIQUE sibling words\n\n## Findings\n\nSibling findings ZEBRA-FINDINGS.');
  await applyItems(h.deps, actor, {
    threadId: root,
    source: { thread_id: sibling.thread_id, turn: 2 },
    items: [{ kind: 'section', heading: 'Findings' }],
  });
  return { root, sibling: sibling.thread_id };
}

describe('share links', () => {
  it('a pinned path link shows steps 1..k, counts the newer steps, and follows_latest shows the latest', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Pinned');
    await h.turn(actor, root, 'doc: First version.');
    await h.turn(actor, root, 'append: Second step.');
    const pinned = await createShare(h.deps, actor, { threadId: root, scope: 'path', follows_latest: false });
    const following = await createShare(h.deps, actor, { threadId: root, scope: 'path', follows_latest: true });
    expect(pinned.turn).toBe(2);
    expect(tokenOf(pinned.url)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await h.turn(actor, root, 'append: Third step, after sharing.');
    await h.turn(actor, root, 'append: Fourth step.');

    const view = await getSharedView(h.deps, { token: tokenOf(pinned.url) });
    expect(view.turn).toBe(2);
    expect(view.newer_steps).toBe(2);
    expect(view.graph.nodes.map((n) => n.turn_index)).toEqual([1, 2]);
    expect(new Set(view.messages.map((m) => m.turn_index))).toEqual(new Set([1, 2]));
    expect(view.workspace.document.content).toContain('Second step.');
    expect(view.workspace.document.content).not.toContain('Third step');
    expect(view.authorship.summary.agent_words).toBeGreaterThan(0);
    // A later step of the pinned link is not part of it.
    await expectCode(getSharedView(h.deps, { token: tokenOf(pinned.url), turn: 3 }), 'not_found');

    const latest = await getSharedView(h.deps, { token: tokenOf(following.url) });
    expect(latest.turn).toBe(4);
    expect(latest.newer_steps).toBe(0);
    expect(latest.workspace.document.content).toContain('Fourth step.');
  });

  it('PATCH keeps the URL; revoked and expired links are 404 at once; views are counted', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Patch');
    await h.turn(actor, root, 'doc: One.');
    await h.turn(actor, root, 'append: Two.');
    const share = await createShare(h.deps, actor, { threadId: root, scope: 'path', turn: 1, follows_latest: false });
    const token = tokenOf(share.url);
    expect((await getSharedView(h.deps, { token })).turn).toBe(1);
    const patched = await updateShare(h.deps, actor, { shareId: share.share_id, turn: 2 });
    expect(patched.turn).toBe(2);
    expect((await getSharedView(h.deps, { token })).turn).toBe(2);
    const [listed] = (await listShares(h.deps, actor, { threadId: root })).shares;
    expect(listed).toMatchObject({ share_id: share.share_id, view_count: 2, url: null });
    expect(listed!.last_viewed_at).not.toBeNull();

    await revokeShare(h.deps, actor, { shareId: share.share_id });
    await expectCode(getSharedView(h.deps, { token }), 'not_found');
    expect((await listShares(h.deps, actor, { threadId: root })).shares).toEqual([]);

    const expiring = await createShare(h.deps, actor, { threadId: root, scope: 'path', follows_latest: false });
    await h.deps.db.execute(sql`update share_links set expires_at = now() - interval '1 second' where id = ${expiring.share_id}`);
    await expectCode(getSharedView(h.deps, { token: tokenOf(expiring.url) }), 'not_found');
    await expectCode(getSharedView(h.deps, { token: 'not-a-token' }), 'not_found');
  });

  it("a path link's answers hold no other path's text, title, label or thread id", async () => {
    const actor = await h.newUser();
    const { root, sibling } = await family(actor);
    const share = await createShare(h.deps, actor, { threadId: root, scope: 'path', follows_latest: false });
    const token = tokenOf(share.url);
    const view = await getSharedView(h.deps, { token });
    // The applied section is there (it is this path's text now) — its source is not.
    expect(view.workspace.document.content).toContain('ZEBRA-FINDINGS');
    expect(view.authorship.spans.some((s) => s.via === 'apply')).toBe(true);
    const siblingLabel = (await familyLabels(actor, sibling)).get(sibling)!;
    const bodies = [
      view,
      await listSharedMessages(h.deps, { token, limit_turns: 100 }),
      ...(await replayEvery(token)),
      await exportSharedDocument(h.deps, { token }).then((file) => String(file.body)),
    ].map((body) => JSON.stringify(body));
    for (const body of bodies) {
      expect(body).not.toContain(sibling);
      expect(body).not.toContain('Secret sibling path');
      expect(body).not.toContain('ZEBRA-UNIQUE');
      expect(body).not.toMatch(new RegExp(`"(source_label|label)":"${siblingLabel.replace('.', '\\.')}"`));
    }
    // Another path of the family is not part of a path link.
    await expectCode(getSharedView(h.deps, { token, thread: sibling }), 'not_found');
  });

  it('a family link shows every path, opening on the one it names', async () => {
    const actor = await h.newUser();
    const { root, sibling } = await family(actor);
    const share = await createShare(h.deps, actor, { threadId: root, scope: 'family', follows_latest: false });
    const token = tokenOf(share.url);
    const view = await getSharedView(h.deps, { token });
    expect(view.thread_id).toBe(root);
    expect(view.graph.threads.map((t) => t.thread_id).sort()).toEqual([root, sibling].sort());
    const other = await getSharedView(h.deps, { token, thread: sibling });
    expect(other.workspace.document.content).toContain('ZEBRA-UNIQUE');
    expect(other.title).toBe('Secret sibling path');
    // Replay reads the opened path.
    expect((await replaySharedChange(h.deps, { token, thread: sibling, seq: 1 })).seq).toBe(1);
  });

  it('a pinned path link replays only the changes up to its step', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Replay bound');
    await h.turn(actor, root, 'doc: One.');
    const share = await createShare(h.deps, actor, { threadId: root, scope: 'path', follows_latest: false });
    const token = tokenOf(share.url);
    const first = await replaySharedChange(h.deps, { token, seq: 1 });
    await h.turn(actor, root, 'append: Two.');
    const again = await replaySharedChange(h.deps, { token, seq: 1 });
    expect(again.total).toBe(first.total);
    await expectCode(replaySharedChange(h.deps, { token, seq: first.total + 1 }), 'validation_failed');
  });

  it('copy seeds a family of the caller as of step k and grants nothing on the original', async () => {
    const owner = await h.newUser();
    const reader = await h.newUser();
    const root = await h.newConversation(owner, 'Original');
    await h.turn(owner, root, 'doc: # Plan\n\nStep one text.');
    await h.turn(owner, root, 'todo: Write the methods');
    await h.turn(owner, root, 'append: Step three text.');
    const share = await createShare(h.deps, owner, { threadId: root, scope: 'path', turn: 2, follows_latest: false });
    const copy = await copySharedPath(h.deps, reader, { token: tokenOf(share.url) });

    const workspace = await getWorkspace(h.deps, reader, { threadId: copy.thread_id });
    const original = await getRestoreView(h.deps, owner, { threadId: root, turn: 2 });
    expect(workspace.document.content).toBe(original.workspace.document.content);
    expect(workspace.todos.map((t) => t.text)).toEqual(['Write the methods']);
    expect(workspace.document.content).not.toContain('Step three');
    const transcript = await listMessages(h.deps, reader, { threadId: copy.thread_id, limit_turns: 100 });
    expect(transcript.messages.map((m) => [m.turn_index, m.role, m.content])).toEqual(
      original.messages.map((m) => [m.turn_index, m.role, m.content]),
    );
    // An earlier step of the copy restores like any step.
    const stepOne = await getRestoreView(h.deps, reader, { threadId: copy.thread_id, turn: 1 });
    expect(stepOne.workspace.document.content).toContain('Step one text.');
    // The copy continues: a message there is step 3 of the caller's family.
    await h.turn(reader, copy.thread_id, 'append: My own continuation.');
    expect((await getWorkspace(h.deps, reader, { threadId: copy.thread_id })).document.content).toContain('My own continuation.');
    // The original is untouched and still the owner's alone.
    expect((await getWorkspace(h.deps, owner, { threadId: root })).document.content).not.toContain('My own continuation.');
    await expectCode(getWorkspace(h.deps, reader, { threadId: root }), 'forbidden');
  });

  it('only the owner creates links; a member (viewer, editor) or a stranger cannot share, list, change or revoke', async () => {
    const owner = await h.newUser();
    const stranger = await h.newUser();
    const root = await h.newConversation(owner, 'Mine');
    await h.turn(owner, root, 'doc: Text.');
    await expectCode(createShare(h.deps, stranger, { threadId: root, scope: 'path', follows_latest: false }), 'forbidden');
    // Members other than the owner read and write the family, but do not hand it out.
    for (const role of ['viewer', 'editor'] as const) {
      const person = await h.newUser();
      const { url } = await createInvitation(h.deps.db, owner, { threadId: root, role });
      await acceptInvitation(h.deps.db, person, { token: url.split('/join/')[1]! });
      await expectCode(createShare(h.deps, person, { threadId: root, scope: 'family', follows_latest: false }), 'forbidden');
      await expectCode(listShares(h.deps, person, { threadId: root }), 'forbidden');
    }
    await expectCode(listShares(h.deps, stranger, { threadId: root }), 'forbidden');
    const share = await createShare(h.deps, owner, { threadId: root, scope: 'family', follows_latest: false });
    await expectCode(updateShare(h.deps, stranger, { shareId: share.share_id, turn: 1 }), 'forbidden');
    await expectCode(revokeShare(h.deps, stranger, { shareId: share.share_id }), 'forbidden');
    await expectCode(createShare(h.deps, owner, { threadId: root, scope: 'path', turn: 9, follows_latest: false }), 'validation_failed');
    // A deleted family's links stop working.
    await updateConversation(h.deps, owner, { threadId: root, title: 'Renamed' });
    expect((await getSharedView(h.deps, { token: tokenOf(share.url) })).share.title).toBe('Renamed');
    await h.deps.db.execute(sql`update conversations set deleted_at = now() where thread_id = ${root}`);
    await expectCode(getSharedView(h.deps, { token: tokenOf(share.url) }), 'not_found');
  });
});

async function familyLabels(actor: Actor, threadId: string): Promise<Map<string, string>> {
  const { getFamilyGraph } = await import('../graph/get-family-graph');
  const graph = await getFamilyGraph(h.deps, actor, { threadId });
  return new Map(graph.nodes.filter((n) => n.thread_id === threadId).map((n) => [n.thread_id, n.label]));
}

async function replayEvery(token: string) {
  const first = await replaySharedChange(h.deps, { token, seq: 1 });
  const all = [first];
  for (let seq = 2; seq <= first.total; seq++) all.push(await replaySharedChange(h.deps, { token, seq }));
  return all;
}
