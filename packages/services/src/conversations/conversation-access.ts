// The one access rule of every thread-scoped service (docs/architecture.md, "People in a family").
// A family's owner is its root's `user_id` (every thread of a family carries it); its members are
// `family_members` rows keyed by the root, so a branch answers to its family's members.
// owner ⊇ editor ⊇ commenter ⊇ viewer. Unknown, soft-deleted or still-pending (a branch
// mid-creation) → 404; a thread the caller has no role in, or a role too weak for the need → 403.
// Readers never see a pending branch.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { AppError, isThreadId, roleAllows, rolesAllowed, type AccessNeed, type FamilyRole } from '@trellis/domain';
import { conversationBranches, conversations, familyMembers, type DbOrTx } from '@trellis/db';

/**
 * Whoever asks for a thread: a signed-in person (session or API token), or a study's participant,
 * whose stand-in identity is an editor member of their own family and of nothing else. Each kind is
 * resolved to a role by {@link roleOf} and nowhere else.
 */
export interface ThreadActor {
  kind?: 'user' | 'participant';
  userId: string;
}

export type ConversationRow = typeof conversations.$inferSelect;

export interface ThreadAccess {
  conversation: ConversationRow;
  parentThreadId: string | null;
  branchPointTurn: number | null;
  /** The branch row's reason; null on a root (and where the caller did not load it). */
  branchReason?: string | null;
  /** The caller's role in the thread's family. */
  role: FamilyRole;
}

/** What the rule needs to know of a thread, however the caller loaded it. */
export interface ThreadFacts {
  /** The family owner (`conversations.user_id`). */
  userId: string;
  isDeleted: boolean;
  isPending: boolean;
  /** The caller's member role in the thread's family, when it has one (null: none; undefined: not loaded). */
  memberRole?: FamilyRole | null | undefined;
}

/**
 * Loads a thread the caller may use for `need`, or throws 404/403. With `lock`, the conversation
 * row is locked (`FOR NO KEY UPDATE`) until the surrounding transaction ends: every workspace
 * mutation takes it, so list positions stay dense and a snapshot never interleaves with an edit.
 * The member row is read by the same statement (a primary-key probe), so the rule costs no round
 * trip of its own.
 */
export async function requireThreadAccess(
  db: DbOrTx,
  actor: ThreadActor,
  threadId: string,
  need: AccessNeed,
  options: { lock?: boolean } = {},
): Promise<ThreadAccess> {
  if (!isThreadId(threadId)) throw AppError.notFound('Conversation');
  const query = db
    .select({
      conversation: conversations,
      parentThreadId: conversationBranches.parentThreadId,
      branchPointTurn: conversationBranches.branchPointTurn,
      branchReason: conversationBranches.reason,
      branchStatus: conversationBranches.status,
      memberRole: familyMembers.role,
    })
    .from(conversations)
    .leftJoin(conversationBranches, eq(conversationBranches.threadId, conversations.threadId))
    .leftJoin(familyMembers, and(eq(familyMembers.familyId, conversations.rootThreadId), eq(familyMembers.userId, actorUserId(actor))))
    .where(eq(conversations.threadId, threadId));
  const [row] = await (options.lock ? query.for('no key update', { of: conversations }) : query);
  if (!row) throw AppError.notFound('Conversation');
  const role = assertAccess(
    {
      userId: row.conversation.userId,
      isDeleted: row.conversation.deletedAt !== null,
      isPending: row.branchStatus === 'pending',
      memberRole: row.memberRole,
    },
    actor,
    need,
  );
  return {
    conversation: row.conversation,
    parentThreadId: row.parentThreadId,
    branchPointTurn: row.branchPointTurn,
    branchReason: row.branchReason,
    role,
  };
}

/**
 * The rule for a thread the caller loaded its own way, with the member role it read beside it
 * (see {@link memberRoleSql}); answers the caller's role or throws 404/403.
 */
export function assertAccess(thread: ThreadFacts | undefined, actor: ThreadActor, need: AccessNeed): FamilyRole {
  if (!thread || thread.isDeleted || thread.isPending) throw AppError.notFound('Conversation');
  const role = roleOf(actor, thread);
  // A participant learns nothing of families other than their own: not even that one exists.
  if (role === null) throw actor.kind === 'participant' ? AppError.notFound('Conversation') : AppError.forbidden();
  if (!roleAllows(role, need)) throw AppError.forbidden(`${/^[aeiou]/.test(role) ? 'An' : 'A'} ${role} of this conversation cannot do this`);
  return role;
}

/**
 * {@link assertAccess} for a thread loaded without its member role: the owner is answered from the
 * row, anyone else costs one primary-key read of `family_members`.
 */
export async function assertAccessReading(
  db: DbOrTx,
  thread: (Omit<ThreadFacts, 'memberRole'> & { rootThreadId: string }) | undefined,
  actor: ThreadActor,
  need: AccessNeed,
): Promise<FamilyRole> {
  if (!thread || thread.isDeleted || thread.isPending || thread.userId === actorUserId(actor)) return assertAccess(thread, actor, need);
  const [member] = await db
    .select({ role: familyMembers.role })
    .from(familyMembers)
    .where(and(eq(familyMembers.familyId, thread.rootThreadId), eq(familyMembers.userId, actorUserId(actor))));
  return assertAccess({ ...thread, memberRole: member?.role ?? null }, actor, need);
}

/** The caller's role in a thread's family; null when it has none. */
export function roleOf(actor: ThreadActor, thread: Pick<ThreadFacts, 'userId' | 'memberRole'>): FamilyRole | null {
  switch (actor.kind ?? 'user') {
    case 'user':
      if (thread.userId === actor.userId) return 'owner';
      return thread.memberRole ?? null;
    case 'participant':
      return thread.memberRole ?? null;
  }
}

/** The person behind an actor, for the rows that record who did something. */
export function actorUserId(actor: ThreadActor): string {
  return actor.userId;
}

/**
 * For statements that check access in SQL (a lease taken in one round trip, a page read in one
 * query): true when the person may act with `need` on the thread whose owner and root are the given
 * column expressions. Keep it in step with {@link roleOf}.
 */
export function canSql(actor: ThreadActor, need: AccessNeed, columns: { owner: SQL; root: SQL }): SQL {
  const userId = actorUserId(actor);
  if (need === 'own') return sql`(${columns.owner} = ${userId})`;
  const roles = rolesAllowed(need).filter((role) => role !== 'owner');
  return sql`(${columns.owner} = ${userId} or exists (select 1 from family_members fm
    where fm.family_id = ${columns.root} and fm.user_id = ${userId}
      and fm.role in (${sql.join(roles.map((r) => sql`${r}`), sql`, `)})))`;
}

/** The caller's member role in the family rooted at `root` (a column expression), as a scalar subquery; null when none. */
export function memberRoleSql(actor: ThreadActor, root: SQL): SQL {
  return sql`(select fm.role from family_members fm where fm.family_id = ${root} and fm.user_id = ${actorUserId(actor)})`;
}

/**
 * The turn lease's access check, in the `update conversations` that takes it (one round trip): the
 * family's owner or an editor.
 */
export function leaseAccessSql(actor: ThreadActor): SQL {
  return canSql(actor, 'edit', { owner: sql`conversations.user_id`, root: sql`conversations.root_thread_id` });
}
