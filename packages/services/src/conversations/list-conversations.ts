import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { AppError, type Conversation } from '@trellis/domain';
import { conversationBranches, conversations, familyMembers, user } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { actorUserId, roleOf, type ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';

export interface ListConversationsInput {
  includeArchived?: boolean;
  /** Page size in conversations; a page holds whole families (at least one, whatever its size). */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

/**
 * The caller's live threads — of its own families and of those shared with it, each with the
 * caller's role and, when shared, its owner's name: family roots and active branches. A branch whose
 * row is still `pending` is being created (or was abandoned) and is never listed
 * (docs/branching.md, "Creating a branch: three phases and the sweeper"). A soft-deleted thread takes its
 * subtree out of the list (docs/branching.md, "The family graph"); its descendants stay
 * reachable by id. An archived thread does the same unless `includeArchived`
 * (archive is a reversible delete). A study participant's family is not listed (the researcher
 * opens it from the study's dashboard).
 *
 * Without `limit`: every thread, most recently updated first. With `limit`:
 * pages of whole families, newest family first by its root's creation — a key
 * that never changes, so paging while conversations are added or updated
 * returns every conversation that existed at the start exactly once — each page
 * found by one walk of a (user, root creation) index, so its cost follows the
 * page, not how many conversations the user has. Inside a page, most recently
 * updated first, family by family.
 */
export async function listConversations(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: ListConversationsInput = {},
): Promise<{ conversations: Conversation[]; next_cursor?: string | null }> {
  const includeArchived = input.includeArchived ?? false;
  const userId = actorUserId(actor);
  if (input.limit === undefined) {
    const rows = await selectVisible(deps, actor, includeArchived, undefined);
    return { conversations: rows.map((row) => asConversation(actor, row)) };
  }
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const keyset = after === null ? sql`` : sql`and (r.created_at, r.thread_id) < (${after.createdAt}::timestamptz, ${after.rootThreadId})`;
  // The next families in order with their sizes; enough of them to fill `limit`
  // (each has at least one thread, so `limit + 1` families always suffice).
  const families = await deps.db.execute<{ root_thread_id: string; created_at: string; kept: boolean }>(sql`
    with page as (
      select r.thread_id as root_thread_id, r.created_at,
        sum(f.n) over (order by r.created_at desc, r.thread_id desc) - f.n as before
      from (
        (select r.thread_id, r.created_at from conversations r
        where r.user_id = ${userId} and r.thread_id = r.root_thread_id ${keyset}
          -- A hidden root hides its whole family: such a family would only make an empty page.
          and r.deleted_at is null and (not r.is_archived or ${includeArchived})
          ${NOT_A_PARTICIPANT_FAMILY}
        -- nulls last, as conversations_user_family_idx is built (both columns are not null): a plain
        -- desc asks for nulls first, which that index cannot serve, so every root was read and sorted
        order by r.created_at desc nulls last, r.thread_id desc nulls last
        limit ${input.limit + 1})
        union all
        -- the families shared with the caller, merged into the same order
        (select r.thread_id, r.created_at from family_members fm join conversations r on r.thread_id = fm.family_id
        where fm.user_id = ${userId} ${keyset} and r.deleted_at is null and (not r.is_archived or ${includeArchived})
        order by r.created_at desc, r.thread_id desc
        limit ${input.limit + 1})
        order by created_at desc, thread_id desc
        limit ${input.limit + 1}
      ) r
      cross join lateral (select count(*) as n from conversations m where m.root_thread_id = r.thread_id) f
    )
    select root_thread_id, created_at::text as created_at, before < ${input.limit} as kept
    from page order by created_at desc, root_thread_id desc`);
  const kept = families.filter((f) => f.kept);
  const last = kept.at(-1);
  const next_cursor = last !== undefined && kept.length < families.length ? encodeCursor(last.created_at, last.root_thread_id) : null;
  if (kept.length === 0) return { conversations: [], next_cursor };
  const order = new Map(kept.map((f, i) => [f.root_thread_id, i]));
  const rows = await selectVisible(
    deps,
    actor,
    includeArchived,
    kept.map((f) => f.root_thread_id),
  );
  // Stable: inside a family, the query's order (most recently updated first).
  rows.sort((a, b) => (order.get(a.conversation.rootThreadId) ?? 0) - (order.get(b.conversation.rootThreadId) ?? 0));
  return { conversations: rows.map((row) => asConversation(actor, row)), next_cursor };
}

/**
 * A study participant's family belongs to the researcher, who reads it from the study's dashboard:
 * the conversation list, theirs to write in, would otherwise fill with every participant's family.
 */
const NOT_A_PARTICIPANT_FAMILY = sql`and not exists (select 1 from study_participants sp where sp.thread_id = r.thread_id)`;

/** The visible threads of the caller, of the families rooted at `roots` only when given (a page). */
function selectVisible(deps: Pick<ServiceDeps, 'db'>, actor: ThreadActor, includeArchived: boolean, roots: string[] | undefined) {
  const userId = actorUserId(actor);
  // A hidden thread hides its subtree, which is in its own family: a page looks for them in its
  // families alone, so its cost follows the page, not every thread the caller has put away.
  const hiddenInPage = roots === undefined ? sql`` : sql`and d.root_thread_id in (${sql.join(roots.map((root) => sql`${root}`), sql`, `)})`;
  return deps.db
    .select({
      conversation: conversations,
      parentThreadId: conversationBranches.parentThreadId,
      branchPointTurn: conversationBranches.branchPointTurn,
      branchReason: conversationBranches.reason,
      memberRole: familyMembers.role,
      ownerName: user.name,
    })
    .from(conversations)
    .leftJoin(conversationBranches, eq(conversationBranches.threadId, conversations.threadId))
    .leftJoin(familyMembers, and(eq(familyMembers.familyId, conversations.rootThreadId), eq(familyMembers.userId, userId)))
    .innerJoin(user, eq(user.id, conversations.userId))
    .where(
      and(
        or(eq(conversations.userId, userId), isNotNull(familyMembers.role)),
        roots === undefined ? undefined : inArray(conversations.rootThreadId, roots),
        isNull(conversations.deletedAt),
        or(isNull(conversationBranches.threadId), eq(conversationBranches.status, 'active')),
        sql`not exists (select 1 from study_participants sp where sp.thread_id = ${conversations.rootThreadId})`,
        sql`${conversations.threadId} not in (
          with recursive hidden as (
            select d.thread_id from conversations d
            where (d.user_id = ${userId} or d.root_thread_id in (select family_id from family_members where user_id = ${userId})) ${hiddenInPage}
              and (d.deleted_at is not null or (d.is_archived and not ${includeArchived}))
            union
            select b.thread_id from conversation_branches b join hidden h on b.parent_thread_id = h.thread_id
          )
          select thread_id from hidden)`,
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.threadId));
}

/** `timestamptz::text`, exact to the microsecond (a JS Date would round it and break the keyset). */
const POSTGRES_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

function encodeCursor(createdAt: string, rootThreadId: string): string {
  return Buffer.from(JSON.stringify([createdAt, rootThreadId])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; rootThreadId: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      const [createdAt, rootThreadId] = value as [string, string];
      if (POSTGRES_TIMESTAMP.test(createdAt)) return { createdAt, rootThreadId };
    }
  } catch {
    // falls through to the refusal
  }
  throw new AppError('bad_request', 'The cursor is not one this list returned; start again without it');
}

function asConversation(actor: ThreadActor, row: Awaited<ReturnType<typeof selectVisible>>[number]): Conversation {
  const role = roleOf(actor, { userId: row.conversation.userId, memberRole: row.memberRole });
  // The query keeps only the caller's own threads and its families' members' rows.
  if (role === null) throw new Error('listed a thread the caller has no role in');
  return toConversation({ ...row, role }, { user_id: row.conversation.userId, name: row.ownerName });
}
