// People in a family through the services: invitations are single use, expire and die when revoked;
// roles decide what a member may do (owner ⊇ editor ⊇ commenter ⊇ viewer) on every thread of the
// family, a branch made later included; a removal or downgrade holds from the next call and ends
// that person's event stream on another process within 2 s; shared families are listed with their
// role and owner, and their messages name who sent them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import { connectAdmin, collect, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { acceptInvitation, createInvitation, revokeInvitation } from './invitations';
import { listMembers, removeMember, updateMember } from './members';
import { getConversation } from '../conversations/get-conversation';
import { listConversations } from '../conversations/list-conversations';
import { deleteConversation } from '../conversations/delete-conversation';
import { patchWorkspace } from '../workspace/patch-workspace';
import { getWorkspace } from '../workspace/get-workspace';
import { createBranch } from '../branching/create-branch';
import { sendTurn } from '../turns/send-turn';
import { listMessages } from '../lineage/list-messages';
import { subscribeFamilyEvents } from '../live/subscribe-family-events';
import { exportDataset } from '../export/export-dataset';
import { getAuthorship } from '../authorship/get-authorship';
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';

const admin = connectAdmin();
let deps: TestDeps;
let other: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  deps = createTestDeps();
  other = createTestDeps();
});
afterAll(async () => {
  await Promise.all([deps.close(), other.close()]);
  await admin.close();
});

const tokenOf = (url: string) => url.split('/join/')[1]!;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

async function familyWithMember(role: 'viewer' | 'commenter' | 'editor') {
  const owner = await newUser(admin);
  const member = await newUser(admin);
  const threadId = await newThread(deps, owner, 'Shared review');
  const invitation = await createInvitation(deps.db, owner, { threadId, role });
  await acceptInvitation(deps.db, member, { token: tokenOf(invitation.url) });
  return { owner, member, threadId };
}

describe('invitations', () => {
  it('a link is single use, carries its role, and is useless once used, revoked or expired', async () => {
    const owner = await newUser(admin);
    const [first, second, third] = [await newUser(admin), await newUser(admin), await newUser(admin)];
    const threadId = await newThread(deps, owner);
    const invitation = await createInvitation(deps.db, owner, { threadId, role: 'editor' });
    expect(invitation.url).toMatch(/^\/join\/[A-Za-z0-9_-]{43}$/);
    expect(new Date(invitation.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    const [stored] = await admin.db.execute<{ token_hash: string }>(
      sql`select token_hash from family_invitations where id = ${invitation.invitation_id}::uuid`,
    );
    expect(stored!.token_hash).not.toContain(tokenOf(invitation.url));

    expect(await acceptInvitation(deps.db, first, { token: tokenOf(invitation.url) })).toEqual({ thread_id: threadId, role: 'editor' });
    expect(await codeOf(acceptInvitation(deps.db, second, { token: tokenOf(invitation.url) }))).toBe('not_found');

    const revoked = await createInvitation(deps.db, owner, { threadId, role: 'viewer' });
    await revokeInvitation(deps.db, owner, { threadId, invitationId: revoked.invitation_id });
    expect(await codeOf(acceptInvitation(deps.db, second, { token: tokenOf(revoked.url) }))).toBe('not_found');
    expect(await codeOf(revokeInvitation(deps.db, owner, { threadId, invitationId: revoked.invitation_id }))).toBe('not_found');

    const expiring = await createInvitation(deps.db, owner, { threadId, role: 'viewer' });
    await admin.db.execute(sql`update family_invitations set expires_at = now() - interval '1 second' where id = ${expiring.invitation_id}::uuid`);
    expect(await codeOf(acceptInvitation(deps.db, third, { token: tokenOf(expiring.url) }))).toBe('not_found');
    expect(await codeOf(acceptInvitation(deps.db, third, { token: 'A'.repeat(43) }))).toBe('not_found');

    // Only the owner invites, revokes and sees the open invitations.
    expect(await codeOf(createInvitation(deps.db, first, { threadId, role: 'viewer' }))).toBe('forbidden');
    const open = await createInvitation(deps.db, owner, { threadId, role: 'commenter' });
    expect((await listMembers(deps.db, owner, { threadId })).invitations.map((i) => i.invitation_id)).toEqual([open.invitation_id]);
    expect((await listMembers(deps.db, first, { threadId })).invitations).toEqual([]);
    expect(await codeOf(revokeInvitation(deps.db, first, { threadId, invitationId: open.invitation_id }))).toBe('forbidden');
  });

  it('the owner opening their own link stays the owner and leaves it unused', async () => {
    const owner = await newUser(admin);
    const threadId = await newThread(deps, owner);
    const invitation = await createInvitation(deps.db, owner, { threadId, role: 'viewer' });
    expect(await acceptInvitation(deps.db, owner, { token: tokenOf(invitation.url) })).toEqual({ thread_id: threadId, role: 'owner' });
    const someone = await newUser(admin);
    expect(await acceptInvitation(deps.db, someone, { token: tokenOf(invitation.url) })).toEqual({ thread_id: threadId, role: 'viewer' });
  });
});

describe('roles', () => {
  it('a viewer reads every path of the family but cannot write, send, branch or manage', async () => {
    const { owner, member: viewer, threadId } = await familyWithMember('viewer');
    await collect(await sendTurn(deps, owner, { threadId, content: 'First question' }));
    const branch = await createBranch(deps, owner, { threadId, from_turn: 1 });
    expect((await getConversation(deps, viewer, { threadId: branch.thread_id })).role).toBe('viewer');
    expect((await getWorkspace(deps, viewer, { threadId: branch.thread_id })).document).toBeDefined();
    expect((await listMessages(deps, viewer, { threadId, limit_turns: 10 })).messages.length).toBe(2);
    expect(await codeOf(patchWorkspace(deps, viewer, { threadId, patch: { objective: 'mine now' } }))).toBe('forbidden');
    expect(await codeOf(sendTurn(deps, viewer, { threadId, content: 'Can I?' }))).toBe('forbidden');
    expect(await codeOf(createBranch(deps, viewer, { threadId, from_turn: 1 }))).toBe('forbidden');
    expect(await codeOf(createInvitation(deps.db, viewer, { threadId, role: 'viewer' }))).toBe('forbidden');
    expect(await codeOf(deleteConversation(deps, viewer, { threadId }))).toBe('forbidden');
  });

  it('an editor sends, edits and branches; the branch stays the owner’s, and messages name their sender', async () => {
    const { owner, member: editor, threadId } = await familyWithMember('editor');
    await collect(await sendTurn(deps, editor, { threadId, content: 'The editor asks' }));
    await collect(await sendTurn(deps, owner, { threadId, content: 'The owner asks' }));
    await patchWorkspace(deps, editor, { threadId, patch: { objective: 'Written by the editor' } });
    const branch = await createBranch(deps, editor, { threadId, from_turn: 1 });
    expect((await getConversation(deps, owner, { threadId: branch.thread_id })).role).toBe('owner');
    expect(await codeOf(deleteConversation(deps, editor, { threadId: branch.thread_id }))).toBe('forbidden');
    const { messages } = await listMessages(deps, owner, { threadId, limit_turns: 10 });
    const users = messages.filter((m) => m.role === 'user');
    const [ownerName] = await admin.db.execute<{ name: string }>(sql`select name from "user" where id = ${owner.userId}`);
    const [editorName] = await admin.db.execute<{ name: string }>(sql`select name from "user" where id = ${editor.userId}`);
    expect(users.map((m) => m.author)).toEqual([
      { user_id: editor.userId, name: editorName!.name },
      { user_id: owner.userId, name: ownerName!.name },
    ]);
    expect(messages.filter((m) => m.role === 'assistant').every((m) => m.author === undefined)).toBe(true);
    const [change] = await admin.db.execute<{ actor_id: string }>(
      sql`select actor_id from workspace_changes where thread_id = ${threadId} and kind = 'objective' order by seq desc limit 1`,
    );
    expect(change!.actor_id).toBe(editor.userId);
  });

  it('the authorship names each person: their spans carry who, and `people` gives their names and words', async () => {
    const { owner, member: editor, threadId } = await familyWithMember('editor');
    const first = await patchWorkspace(deps, owner, { threadId, patch: { document: { content: 'Owner writes one line.' } } });
    await patchWorkspace(deps, editor, {
      threadId,
      patch: { document: { content: 'Owner writes one line.\n\nThe editor adds two more words.', base_version: first.document.version } },
    });
    const read = await getAuthorship(deps, editor, { threadId });
    const names = await admin.db.execute<{ id: string; name: string }>(
      sql`select id, name from "user" where id in (${owner.userId}, ${editor.userId})`,
    );
    const nameOf = (id: string) => names.find((n) => n.id === id)!.name;
    expect(read.people).toEqual([
      { user_id: owner.userId, name: nameOf(owner.userId), words: 4 },
      { user_id: editor.userId, name: nameOf(editor.userId), words: 6 },
    ]);
    expect(read.summary.person_words).toBe(10);
    const byPerson = read.spans.filter((s) => s.author === 'person').map((s) => s.user_id);
    expect(new Set(byPerson)).toEqual(new Set([owner.userId, editor.userId]));
  });

  it('a stranger gets what a stranger got before: 403 for another’s family, 404 for an unknown one', async () => {
    const { threadId } = await familyWithMember('viewer');
    const stranger = await newUser(admin);
    expect(await codeOf(getConversation(deps, stranger, { threadId }))).toBe('forbidden');
    expect(await codeOf(getConversation(deps, stranger, { threadId: `th_${'0'.repeat(32)}` }))).toBe('not_found');
  });

  it('lists shared families with the caller’s role and the owner’s name, and their branches', async () => {
    const { owner, member, threadId } = await familyWithMember('commenter');
    const branch = await createBranch(deps, owner, { threadId, from_turn: 0 });
    const mine = await newThread(deps, member, 'My own');
    const { conversations } = await listConversations(deps, member);
    const [ownerName] = await admin.db.execute<{ name: string }>(sql`select name from "user" where id = ${owner.userId}`);
    expect(conversations.find((c) => c.thread_id === threadId)).toMatchObject({
      role: 'commenter',
      owner: { user_id: owner.userId, name: ownerName!.name },
    });
    expect(conversations.find((c) => c.thread_id === branch.thread_id)?.role).toBe('commenter');
    expect(conversations.find((c) => c.thread_id === mine)).toMatchObject({ role: 'owner' });
    expect(conversations.find((c) => c.thread_id === mine)?.owner).toBeUndefined();
    const paged = await listConversations(deps, member, { limit: 1 });
    expect(paged.conversations.map((c) => c.root_thread_id)).toEqual([mine]);
    const next = await listConversations(deps, member, { limit: 1, cursor: paged.next_cursor! });
    expect(new Set(next.conversations.map((c) => c.thread_id))).toEqual(new Set([threadId, branch.thread_id]));
  });
});

describe('the dataset of a member', () => {
  it('holds the member’s own families and those shared with them, each with their role, and no one else’s', async () => {
    const { owner, member, threadId } = await familyWithMember('viewer');
    await collect(await sendTurn(deps, owner, { threadId, content: 'Shared question' }));
    const mine = await newThread(deps, member, 'Mine');
    const notShared = await newThread(deps, owner, 'Not shared');
    const read = async (threadId?: string) => {
      const { stream } = await exportDataset(deps, member, { threadId });
      const files = unzipSync(new Uint8Array(await new Response(stream).arrayBuffer()));
      const csv = (name: string) => parse<Record<string, string>>(strFromU8(files[`${name}.csv`]!), { columns: true, skip_empty_lines: true });
      return { families: csv('families'), steps: csv('steps') };
    };
    const all = await read();
    expect(all.families.map((f) => [f.family_id, f.role, f.owner_id]).sort()).toEqual(
      [
        [threadId, 'viewer', owner.userId],
        [mine, 'owner', member.userId],
      ].sort(),
    );
    expect(all.families.some((f) => f.family_id === notShared)).toBe(false);
    expect(all.steps.filter((s) => s.path_id === threadId).map((s) => s.user_message)).toEqual(['Shared question']);
    expect((await read(threadId)).families.map((f) => f.role)).toEqual(['viewer']);
    expect(await codeOf(exportDataset(deps, member, { threadId: notShared }))).toBe('forbidden');
  });
});

describe('removal and downgrade', () => {
  it('hold from the next call, and end the person’s event stream on another process within 2 s', async () => {
    const { owner, member, threadId } = await familyWithMember('editor');
    const ownerStream = await subscribeFamilyEvents(other, owner, { threadId, lastEventId: null });
    const stream = await subscribeFamilyEvents(other, member, { threadId, lastEventId: null });

    await updateMember(deps.db, owner, { threadId, userId: member.userId, role: 'viewer' });
    const downgraded = await drainUntilEnd(stream);
    expect(downgraded.ended).toBe(true);
    expect(downgraded.ms).toBeLessThan(2_000);
    expect(downgraded.kinds.at(-1)).toBe('member_changed');
    expect(await codeOf(patchWorkspace(deps, member, { threadId, patch: { objective: 'still?' } }))).toBe('forbidden');

    const again = await subscribeFamilyEvents(other, member, { threadId, lastEventId: null });
    await removeMember(deps.db, owner, { threadId, userId: member.userId });
    const removed = await drainUntilEnd(again);
    expect(removed.ended).toBe(true);
    expect(removed.ms).toBeLessThan(2_000);
    expect(await codeOf(getConversation(deps, member, { threadId }))).toBe('forbidden');
    expect(await codeOf(subscribeFamilyEvents(other, member, { threadId, lastEventId: null }))).toBe('forbidden');
    expect(ownerStream.ended).toBeNull();
    ownerStream.end('closed');
  });

  it('a member may leave; only the owner removes others, and the owner cannot leave', async () => {
    const { owner, member, threadId } = await familyWithMember('viewer');
    const invitation = await createInvitation(deps.db, owner, { threadId, role: 'editor' });
    const second = await newUser(admin);
    await acceptInvitation(deps.db, second, { token: tokenOf(invitation.url) });
    expect(await codeOf(removeMember(deps.db, member, { threadId, userId: second.userId }))).toBe('forbidden');
    expect(await codeOf(updateMember(deps.db, second, { threadId, userId: member.userId, role: 'editor' }))).toBe('forbidden');
    expect(await codeOf(removeMember(deps.db, owner, { threadId, userId: owner.userId }))).toBe('validation_failed');
    await removeMember(deps.db, member, { threadId, userId: member.userId });
    expect((await listMembers(deps.db, owner, { threadId })).members.map((m) => [m.user_id, m.role])).toEqual([
      [owner.userId, 'owner'],
      [second.userId, 'editor'],
    ]);
    expect(await codeOf(removeMember(deps.db, owner, { threadId, userId: member.userId }))).toBe('not_found');
  });
});

/** Reads a subscription until it ends (or 5 s pass): the kinds it delivered and how long the end took. */
async function drainUntilEnd(subscription: Awaited<ReturnType<typeof subscribeFamilyEvents>>) {
  const started = Date.now();
  const kinds: string[] = [];
  const deadline = started + 5_000;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([
      subscription.next(),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now())))),
    ]);
    clearTimeout(timer);
    if (next === 'timeout') return { ended: false, ms: Date.now() - started, kinds };
    if (next.done) return { ended: true, ms: Date.now() - started, kinds };
    kinds.push(next.value.kind);
  }
}
