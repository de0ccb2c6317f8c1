// Comments (docs/comments.md): notes on a step, a message or a passage of a path's document. They
// are not workspace changes — their own table and family events, no step, no authorship. Commenters
// and up write them; anyone who reads the path reads them. A passage anchor is carried through the
// path's later document changes by their patches (transformAnchor in domain), cached per comment.
import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  AppError,
  transformAnchorThrough,
  type AnchorRange,
  type Comment,
  type CommentList,
  type CreateComment,
  type DocPatch,
  type UpdateComment,
} from '@trellis/domain';
import { comments, familyMembers, messages, user, type DbOrTx } from '@trellis/db';
import { userNames } from '../members/user-names';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadLineage } from '../lineage/load-lineage';
import { appendFamilyEvent } from '../live/family-events';

type CommentRow = typeof comments.$inferSelect;

export async function createComment(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: CreateComment & { threadId: string },
): Promise<Comment> {
  const access = await requireThreadAccess(deps.db, actor, input.threadId, 'comment');
  const familyId = access.conversation.rootThreadId;
  const row = await deps.db.transaction(async (tx) => {
    let anchor: Awaited<ReturnType<typeof anchorColumns>>;
    if (input.parent_id !== undefined) {
      const [parent] = await tx.select().from(comments).where(eq(comments.id, input.parent_id));
      if (!parent || parent.familyId !== familyId) throw AppError.validation([{ path: 'parent_id', message: 'is not a comment of this family' }]);
      if (parent.parentId !== null) throw AppError.validation([{ path: 'parent_id', message: 'replies are one level deep: reply to the first comment' }]);
      // A reply is about what its parent is about; its passage is the parent's (never moved on its own).
      anchor = { anchorKind: parent.anchorKind, turn: parent.turn, messageId: parent.messageId, start: parent.start, end: parent.end, quote: parent.quote };
    } else {
      anchor = await anchorColumns(tx, input.threadId, access.conversation.turnIndex, input.anchor!);
    }
    const mentions = await mentionedMembers(tx, familyId, access.conversation.userId, input.body);
    const [created] = await tx
      .insert(comments)
      .values({
        familyId,
        threadId: input.threadId,
        authorId: actor.userId,
        parentId: input.parent_id ?? null,
        body: input.body,
        mentions,
        ...anchor,
      })
      .returning();
    await appendFamilyEvent(tx, {
      threadId: input.threadId,
      kind: 'comment_changed',
      data: { comment_id: created!.id, action: 'created', author_id: actor.userId, mentions },
    });
    return created!;
  });
  const [comment] = await toComments(deps.db, [row]);
  return comment!;
}

/**
 * The path's comments: its own, and those made on its ancestors' steps and messages that it
 * inherits (steps up to each branch point). A passage comment belongs to the live document of the
 * path it was made on, so only that path shows it.
 */
export async function listComments(
  deps: { db: DbOrTx },
  actor: ThreadActor,
  input: { threadId: string; status: 'open' | 'resolved' | 'all' },
): Promise<CommentList> {
  await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  const lineage = await loadLineage(deps.db, input.threadId);
  // Its own comments, and its ancestors' step and message comments up to each branch point.
  const inheritedFrom = lineage.slice(0, -1).map((entry, i) =>
    and(eq(comments.threadId, entry.thread_id), ne(comments.anchorKind, 'passage'), lte(comments.turn, lineage[i + 1]!.branch_point_turn ?? 0)),
  );
  const list = await deps.db
    .select()
    .from(comments)
    .where(or(eq(comments.threadId, input.threadId), ...inheritedFrom))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  const current = await advancePassages(deps.db, input.threadId, list);
  const kept = filterByStatus(current, input.status);
  return { comments: await toComments(deps.db, kept) };
}

export async function updateComment(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: UpdateComment & { commentId: string },
): Promise<Comment> {
  const existing = await loadComment(deps.db, input.commentId);
  await requireThreadAccess(deps.db, actor, existing.threadId, 'comment');
  if (input.body !== undefined && existing.authorId !== actor.userId) {
    throw AppError.forbidden('Only its author can edit a comment');
  }
  const row = await deps.db.transaction(async (tx) => {
    const mentions = input.body === undefined ? existing.mentions : await mentionedMembers(tx, existing.familyId, null, input.body);
    const [updated] = await tx
      .update(comments)
      .set({
        ...(input.body !== undefined ? { body: input.body, mentions } : {}),
        ...(input.resolved !== undefined
          ? { resolvedAt: input.resolved ? new Date() : null, resolvedBy: input.resolved ? actor.userId : null }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(comments.id, existing.id))
      .returning();
    await appendFamilyEvent(tx, {
      threadId: existing.threadId,
      kind: 'comment_changed',
      data: {
        comment_id: existing.id,
        action: input.resolved === undefined ? 'edited' : input.resolved ? 'resolved' : 'reopened',
        author_id: actor.userId,
        mentions: input.body === undefined ? [] : mentions,
      },
    });
    return updated!;
  });
  const [advanced] = await advancePassages(deps.db, row.threadId, [row]);
  const [comment] = await toComments(deps.db, [advanced!]);
  return comment!;
}

/** The author, or the family's owner, deletes a comment (and its replies). */
export async function deleteComment(deps: Pick<ServiceDeps, 'db'>, actor: ThreadActor, input: { commentId: string }): Promise<void> {
  const existing = await loadComment(deps.db, input.commentId);
  const access = await requireThreadAccess(deps.db, actor, existing.threadId, 'read');
  if (existing.authorId !== actor.userId && access.role !== 'owner') {
    throw AppError.forbidden('Only its author or the owner can delete a comment');
  }
  await deps.db.transaction(async (tx) => {
    await tx.delete(comments).where(sql`${comments.id} = ${existing.id} or ${comments.parentId} = ${existing.id}`);
    await appendFamilyEvent(tx, {
      threadId: existing.threadId,
      kind: 'comment_changed',
      data: { comment_id: existing.id, action: 'deleted', author_id: actor.userId, mentions: [] },
    });
  });
}

async function loadComment(db: DbOrTx, commentId: string): Promise<CommentRow> {
  if (!/^[0-9a-f-]{36}$/i.test(commentId)) throw AppError.notFound('Comment');
  const [row] = await db.select().from(comments).where(eq(comments.id, commentId));
  if (!row) throw AppError.notFound('Comment');
  return row;
}

/** The stored columns of an anchor, checked against the path as it is now. */
async function anchorColumns(
  tx: DbOrTx,
  threadId: string,
  latestTurn: number,
  anchor: NonNullable<CreateComment['anchor']>,
): Promise<Partial<typeof comments.$inferInsert> & { anchorKind: CommentRow['anchorKind'] }> {
  if (anchor.kind === 'step') {
    if (anchor.turn < 1 || anchor.turn > latestTurn) throw AppError.validation([{ path: 'anchor.turn', message: `must be a step of this path (1 to ${latestTurn})` }]);
    return { anchorKind: 'step', turn: anchor.turn };
  }
  if (anchor.kind === 'message') {
    // A message of this path: its own or one it inherits (a turn at or before the branch point).
    const lineage = await loadLineage(tx, threadId);
    const [message] = await tx
      .select({ threadId: messages.threadId, turn: messages.turnIndex })
      .from(messages)
      .where(eq(messages.id, anchor.message_id));
    const owner = message && lineage.findIndex((entry) => entry.thread_id === message.threadId);
    const isOnPath = message !== undefined && owner !== undefined && owner >= 0 && (owner === lineage.length - 1 || message.turn <= (lineage[owner + 1]!.branch_point_turn ?? 0));
    if (!isOnPath) throw AppError.validation([{ path: 'anchor.message_id', message: 'is not a message of this path' }]);
    return { anchorKind: 'message', messageId: anchor.message_id, turn: message.turn };
  }
  // The document is read with the thread's last change under a share lock, so no write lands between them.
  const [doc] = await tx.execute<{ content: string; seq: number | null }>(sql`
    select d.content, (select max(w.seq) from workspace_changes w where w.thread_id = ${threadId}) as seq
    from conversations c join documents d on d.thread_id = c.thread_id
    where c.thread_id = ${threadId} for share of c`);
  const content = doc?.content ?? '';
  if (anchor.end > content.length || content.slice(anchor.start, anchor.end) !== anchor.quote) {
    throw AppError.validation([{ path: 'anchor.quote', message: 'does not match the document at these offsets: it has changed, select the passage again' }]);
  }
  return { anchorKind: 'passage', turn: latestTurn, start: anchor.start, end: anchor.end, quote: anchor.quote, anchorSeq: Number(doc?.seq ?? 0) };
}

/**
 * Carries the path's own passage comments through the document changes made since each was last
 * placed, and stores where they stand now: the next read starts from there.
 */
async function advancePassages(db: DbOrTx, threadId: string, rows: CommentRow[]): Promise<CommentRow[]> {
  const live = rows.filter(
    (r) => r.anchorKind === 'passage' && r.parentId === null && r.threadId === threadId && r.orphanedAtTurn === null && r.anchorSeq !== null,
  );
  if (live.length === 0) return rows;
  const since = Math.min(...live.map((r) => r.anchorSeq!));
  const changes = await db.execute<{ seq: number; turn: number; patch: DocPatch }>(sql`
    select seq, turn, after->'patch' as patch from workspace_changes
    where thread_id = ${threadId} and kind = 'document' and seq > ${since} and after ? 'patch'
    order by seq`);
  if (changes.length === 0) return rows;
  const lastSeq = Number(changes.at(-1)!.seq);
  const moved = new Map<string, CommentRow>();
  for (const row of live) {
    let range: AnchorRange | null = { start: row.start!, end: row.end! };
    let removedAt: number | null = null;
    for (const change of changes) {
      if (Number(change.seq) <= row.anchorSeq!) continue;
      range = transformAnchorThrough(range, [change.patch]);
      if (range === null) {
        removedAt = change.turn;
        break;
      }
    }
    moved.set(row.id, {
      ...row,
      start: range?.start ?? row.start,
      end: range?.end ?? row.end,
      anchorSeq: lastSeq,
      orphanedAtTurn: removedAt,
    });
  }
  const updates = [...moved.values()].map((r) => ({ id: r.id, start: r.start, end: r.end, seq: r.anchorSeq, orphaned: r.orphanedAtTurn }));
  await db.execute(sql`
    update comments c set start = u.start, "end" = u."end", anchor_seq = u.seq, orphaned_at_turn = u.orphaned
    from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as u(id uuid, start int, "end" int, seq bigint, orphaned int)
    where c.id = u.id and c.anchor_seq < u.seq`);
  return rows.map((r) => moved.get(r.id) ?? r);
}

/** Brings the live passage comments of these paths up to their paths' last document change (an export reads them after). */
export async function advancePassagesOf(db: DbOrTx, threadIds: readonly string[]): Promise<void> {
  if (threadIds.length === 0) return;
  const rows = await db
    .select()
    .from(comments)
    .where(and(eq(comments.anchorKind, 'passage'), isNull(comments.orphanedAtTurn), inArray(comments.threadId, [...threadIds])));
  const byThread = new Map<string, CommentRow[]>();
  for (const row of rows) byThread.set(row.threadId, [...(byThread.get(row.threadId) ?? []), row]);
  for (const [threadId, list] of byThread) await advancePassages(db, threadId, list);
}

/** Open or resolved threads of comments: a reply goes with its parent. */
function filterByStatus(rows: CommentRow[], status: 'open' | 'resolved' | 'all'): CommentRow[] {
  if (status === 'all') return rows;
  const parents = new Map(rows.filter((r) => r.parentId === null).map((r) => [r.id, r]));
  return rows.filter((r) => {
    const head = r.parentId === null ? r : parents.get(r.parentId);
    if (!head) return false;
    return status === 'open' ? head.resolvedAt === null : head.resolvedAt !== null;
  });
}

/** `@name` of the family's people (its owner and members), matched by their display name without spaces. */
async function mentionedMembers(db: DbOrTx, familyId: string, ownerId: string | null, body: string): Promise<string[]> {
  const handles = new Set([...body.matchAll(/(?:^|\s)@([\p{L}\p{N}_.-]{1,64})/gu)].map((m) => m[1]!.toLowerCase()));
  if (handles.size === 0) return [];
  const people = await db
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(
      sql`${user.id} in (select ${familyMembers.userId} from ${familyMembers} where ${familyMembers.familyId} = ${familyId})
        or ${user.id} = coalesce(${ownerId}, (select user_id from conversations where thread_id = ${familyId}))`,
    );
  return people.filter((p) => handles.has(p.name.replace(/\s+/g, '').toLowerCase())).map((p) => p.id);
}

async function toComments(db: DbOrTx, rows: CommentRow[]): Promise<Comment[]> {
  if (rows.length === 0) return [];
  // A reply shows its parent's anchor as it stands now.
  const heads = new Map(rows.filter((r) => r.parentId === null).map((r) => [r.id, r]));
  const missing = [...new Set(rows.flatMap((r) => (r.parentId !== null && !heads.has(r.parentId) ? [r.parentId] : [])))];
  if (missing.length > 0) for (const head of await db.select().from(comments).where(inArray(comments.id, missing))) heads.set(head.id, head);
  rows = rows.map((r) => {
    const head = r.parentId === null ? undefined : heads.get(r.parentId);
    return head ? { ...r, anchorKind: head.anchorKind, turn: head.turn, messageId: head.messageId, start: head.start, end: head.end, quote: head.quote, orphanedAtTurn: head.orphanedAtTurn } : r;
  });
  const names = await userNames(db, rows.map((r) => r.authorId));
  return rows.map((r) => ({
    comment_id: r.id,
    thread_id: r.threadId,
    anchor:
      r.anchorKind === 'step'
        ? { kind: 'step', turn: r.turn! }
        : r.anchorKind === 'message'
          ? { kind: 'message', message_id: r.messageId!, turn: r.turn! }
          : {
              kind: 'passage',
              start: r.start!,
              end: r.end!,
              quote: r.quote ?? '',
              orphaned: r.orphanedAtTurn !== null,
              removed_at_turn: r.orphanedAtTurn,
            },
    body: r.body,
    author: { user_id: r.authorId, name: names.get(r.authorId) ?? 'Someone' },
    parent_id: r.parentId,
    resolved: r.resolvedAt !== null,
    mentions: r.mentions,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

