// Comments through the services on a real PostgreSQL: a passage anchor follows the path's document
// through random edits (checked against a reference that marks the passage's units), orphans exactly
// when its text is gone, belongs to its path (a branch shows a parent's step comment on the inherited
// step only); who may comment, edit, resolve and delete; bodies are stored as text.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocPatch } from '@trellis/domain';
import { makeDocPatch } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createBranch } from '../branching/create-branch';
import { patchWorkspace } from '../workspace/patch-workspace';
import { getWorkspace } from '../workspace/get-workspace';
import { listMessages } from '../lineage/list-messages';
import { acceptInvitation, createInvitation } from '../members/invitations';
import { createComment, deleteComment, listComments, updateComment } from './comments';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };

async function member(owner: Actor, threadId: string, role: 'viewer' | 'commenter' | 'editor'): Promise<Actor> {
  const person = await h.newUser();
  const { url } = await createInvitation(h.deps.db, owner, { threadId, role });
  await acceptInvitation(h.deps.db, person, { token: url.split('/join/')[1]! });
  return person;
}

async function setDocument(actor: Actor, threadId: string, content: string) {
  await patchWorkspace(h.deps, actor, { threadId, patch: { document: { content } } });
}

/** The reference: each unit marked in or out of the passage; an insert is in only when both neighbours are. */
function referenceMarks(marks: boolean[], patch: DocPatch): boolean[] {
  const out: boolean[] = [];
  let at = 0;
  for (let i = 0; i < patch.length; i++) {
    const op = patch[i]!;
    if ('r' in op) {
      out.push(...marks.slice(at, at + op.r));
      at += op.r;
    } else if ('d' in op) {
      at += op.d;
    } else {
      let resume = at;
      for (let j = i + 1; j < patch.length && !('r' in patch[j]!); j++) {
        const next = patch[j]!;
        if ('d' in next) resume += next.d;
      }
      const inside = out.length > 0 && out[out.length - 1] === true && marks[resume] === true;
      out.push(...Array.from({ length: op.i.length }, () => inside));
    }
  }
  return [...out, ...marks.slice(at)];
}

describe('comments', () => {
  it('a passage anchor survives 200 random edits around, inside and across it, and is orphaned exactly when its text is gone', async () => {
    const actor = await h.newUser();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.stringMatching(/^[a-z ]{0,5}$/)), { minLength: 200, maxLength: 200 }),
        async (edits) => {
          const threadId = await h.newConversation(actor, 'Anchors');
          let text = 'The first sentence. The claim that needs a source. The last sentence.';
          await setDocument(actor, threadId, text);
          const quote = 'The claim that needs a source.';
          const start = text.indexOf(quote);
          const comment = await createComment(h.deps, actor, { threadId, anchor: { kind: 'passage', start, end: start + quote.length, quote }, body: 'Source?' });
          let marks = Array.from({ length: text.length }, (_, i) => i >= start && i < start + quote.length);
          for (const [n, [at, remove, insert]] of edits.entries()) {
            const from = at % (text.length + 1);
            const next = text.slice(0, from) + insert + text.slice(Math.min(text.length, from + remove));
            if (next === text) continue;
            marks = referenceMarks(marks, makeDocPatch(text, next));
            text = next;
            await setDocument(actor, threadId, text);
            // Read now and then (the cache advances), and always at the end.
            if (n % 37 !== 0 && n !== edits.length - 1) continue;
            const [read] = (await listComments(h.deps, actor, { threadId, status: 'all' })).comments;
            const first = marks.indexOf(true);
            if (read!.anchor.kind !== 'passage') throw new Error('not a passage');
            if (first === -1) {
              expect(read!.anchor.orphaned).toBe(true);
              expect(read!.anchor.quote).toBe(quote);
              return;
            }
            expect(read!.anchor.orphaned).toBe(false);
            expect([read!.anchor.start, read!.anchor.end]).toEqual([first, marks.lastIndexOf(true) + 1]);
          }
          expect(comment.comment_id).toBeTruthy();
        },
      ),
      { numRuns: 3 },
    );
  }, 300_000);

  it('an orphaned passage says at which step its text went, and keeps the quote', async () => {
    const actor = await h.newUser();
    const threadId = await h.newConversation(actor, 'Orphan');
    await h.turn(actor, threadId, 'doc: Keep this. Drop this sentence. Keep that.');
    const text = (await getWorkspace(h.deps, actor, { threadId })).document.content;
    const quote = 'Drop this sentence.';
    const start = text.indexOf(quote);
    await createComment(h.deps, actor, { threadId, anchor: { kind: 'passage', start, end: start + quote.length, quote }, body: 'Hmm' });
    await h.turn(actor, threadId, 'doc: Keep this. Keep that.');
    const [read] = (await listComments(h.deps, actor, { threadId, status: 'all' })).comments;
    expect(read!.anchor).toEqual({ kind: 'passage', start: expect.any(Number), end: expect.any(Number), quote, orphaned: true, removed_at_turn: 2 });
  });

  it("a comment on a parent's step shows on a branch's inherited step and not on its own steps", async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Root');
    await h.turn(actor, root, 'doc: One.');
    await h.turn(actor, root, 'append: Two.');
    await createComment(h.deps, actor, { threadId: root, anchor: { kind: 'step', turn: 1 }, body: 'On step one' });
    await createComment(h.deps, actor, { threadId: root, anchor: { kind: 'step', turn: 2 }, body: 'On step two of the root' });
    const messages = await listMessages(h.deps, actor, { threadId: root, limit_turns: 10 });
    await createComment(h.deps, actor, { threadId: root, anchor: { kind: 'message', message_id: messages.messages[0]!.id }, body: 'On the first message' });
    const branch = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    await h.turn(actor, branch.thread_id, 'append: Branch two.');
    await createComment(h.deps, actor, { threadId: branch.thread_id, anchor: { kind: 'step', turn: 2 }, body: 'On the branch’s own step two' });
    const onBranch = (await listComments(h.deps, actor, { threadId: branch.thread_id, status: 'all' })).comments.map((c) => c.body);
    expect(onBranch).toEqual(['On step one', 'On the first message', 'On the branch’s own step two']);
    const onRoot = (await listComments(h.deps, actor, { threadId: root, status: 'all' })).comments.map((c) => c.body);
    expect(onRoot).toEqual(['On step one', 'On step two of the root', 'On the first message']);
  });

  it('commenters comment and resolve, only the author edits, the author or owner deletes; a viewer gets 403, a stranger 403', async () => {
    const owner = await h.newUser();
    const threadId = await h.newConversation(owner, 'Roles');
    await h.turn(owner, threadId, 'doc: Text.');
    const commenter = await member(owner, threadId, 'commenter');
    const viewer = await member(owner, threadId, 'viewer');
    const stranger = await h.newUser();
    const note = await createComment(h.deps, commenter, { threadId, anchor: { kind: 'step', turn: 1 }, body: '<img src=x onerror=alert(1)> needs work' });
    expect(note.body).toBe('<img src=x onerror=alert(1)> needs work');
    expect(note.author.user_id).toBe(commenter.userId);
    await expectCode(createComment(h.deps, viewer, { threadId, anchor: { kind: 'step', turn: 1 }, body: 'x' }), 'forbidden');
    await expectCode(createComment(h.deps, stranger, { threadId, anchor: { kind: 'step', turn: 1 }, body: 'x' }), 'forbidden');
    expect((await listComments(h.deps, viewer, { threadId, status: 'all' })).comments).toHaveLength(1);
    await expectCode(listComments(h.deps, stranger, { threadId, status: 'all' }), 'forbidden');

    const reply = await createComment(h.deps, owner, { threadId, anchor: { kind: 'step', turn: 1 }, body: 'Agreed', parent_id: note.comment_id });
    await expectCode(createComment(h.deps, owner, { threadId, anchor: { kind: 'step', turn: 1 }, body: 'x', parent_id: reply.comment_id }), 'validation_failed');
    await expectCode(updateComment(h.deps, owner, { commentId: note.comment_id, body: 'rewritten' }), 'forbidden');
    expect((await updateComment(h.deps, commenter, { commentId: note.comment_id, body: 'needs a source' })).body).toBe('needs a source');
    expect((await updateComment(h.deps, owner, { commentId: note.comment_id, resolved: true })).resolved).toBe(true);
    expect((await listComments(h.deps, owner, { threadId, status: 'open' })).comments).toEqual([]);
    expect((await listComments(h.deps, owner, { threadId, status: 'resolved' })).comments.map((c) => c.body)).toEqual(['needs a source', 'Agreed']);
    await expectCode(deleteComment(h.deps, viewer, { commentId: note.comment_id }), 'forbidden');
    await deleteComment(h.deps, owner, { commentId: note.comment_id });
    expect((await listComments(h.deps, owner, { threadId, status: 'all' })).comments).toEqual([]);
  });

  it('refuses a passage whose quote does not match the live document, and names mentioned members', async () => {
    const owner = await h.newUser();
    const threadId = await h.newConversation(owner, 'Quotes');
    await setDocument(owner, threadId, 'Alpha beta gamma.');
    await expectCode(createComment(h.deps, owner, { threadId, anchor: { kind: 'passage', start: 0, end: 5, quote: 'Gamma' }, body: 'x' }), 'validation_failed');
    const ana = await member(owner, threadId, 'commenter');
    await h.deps.db.execute(sqlSetName(ana.userId, 'Ana Lima'));
    const comment = await createComment(h.deps, owner, { threadId, anchor: { kind: 'passage', start: 6, end: 10, quote: 'beta' }, body: 'What do you think, @AnaLima?' });
    expect(comment.mentions).toEqual([ana.userId]);
  });
});

function sqlSetName(userId: string, name: string) {
  return sql`update "user" set name = ${name} where id = ${userId}`;
}
