// The people of a family and their roles (docs/architecture.md, "People in a family"). The owner
// manages members; a member may leave. A change takes effect at the next request (the access rule
// reads `family_members` every time) and ends that person's event streams through the family's own
// `member_changed` event, which reaches every studio process.
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { AppError, type MemberList, type MemberRole } from '@trellis/domain';
import { familyInvitations, familyMembers, user, type Db } from '@trellis/db';
import { actorUserId, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { appendFamilyEvent } from '../live/family-events';

/** Everyone in the family, the owner first; open invitations for the owner only. */
export async function listMembers(db: Db, actor: ThreadActor, input: { threadId: string }): Promise<MemberList> {
  const { conversation, role } = await requireThreadAccess(db, actor, input.threadId, 'read');
  const family = conversation.rootThreadId;
  const [owner, members, invitations] = await Promise.all([
    db.execute<{ user_id: string; name: string; email: string; joined_at: Date }>(sql`
      select u.id as user_id, u.name, u.email, c.created_at as joined_at
      from conversations c join "user" u on u.id = c.user_id where c.thread_id = ${family}`),
    db
      .select({ user_id: user.id, name: user.name, email: user.email, role: familyMembers.role, joined_at: familyMembers.joinedAt })
      .from(familyMembers)
      .innerJoin(user, eq(user.id, familyMembers.userId))
      .where(eq(familyMembers.familyId, family))
      .orderBy(asc(familyMembers.joinedAt), asc(user.id)),
    role !== 'owner'
      ? Promise.resolve([])
      : db
          .select({ invitation_id: familyInvitations.id, role: familyInvitations.role, created_at: familyInvitations.createdAt, expires_at: familyInvitations.expiresAt })
          .from(familyInvitations)
          .where(
            and(
              eq(familyInvitations.familyId, family),
              isNull(familyInvitations.acceptedAt),
              isNull(familyInvitations.revokedAt),
              gt(familyInvitations.expiresAt, sql`now()`),
            ),
          )
          .orderBy(asc(familyInvitations.createdAt)),
  ]);
  return {
    members: [
      ...owner.map((o) => ({ ...o, role: 'owner' as const, joined_at: new Date(o.joined_at).toISOString() })),
      ...members.map((m) => ({ ...m, joined_at: m.joined_at.toISOString() })),
    ],
    invitations: invitations.map((i) => ({ ...i, created_at: i.created_at.toISOString(), expires_at: i.expires_at.toISOString() })),
  };
}

/** The owner changes a member's role; the member's open streams end and reconnect with it. */
export async function updateMember(
  db: Db,
  actor: ThreadActor,
  input: { threadId: string; userId: string; role: MemberRole },
): Promise<{ user_id: string; role: MemberRole }> {
  return db.transaction(async (tx) => {
    const { conversation } = await requireThreadAccess(tx, actor, input.threadId, 'own');
    const [row] = await tx
      .update(familyMembers)
      .set({ role: input.role, updatedAt: sql`now()` })
      .where(and(eq(familyMembers.familyId, conversation.rootThreadId), eq(familyMembers.userId, input.userId)))
      .returning({ role: familyMembers.role });
    if (!row) throw AppError.notFound('Member');
    await appendFamilyEvent(tx, { threadId: conversation.rootThreadId, kind: 'member_changed', data: { user_id: input.userId, role: row.role } });
    return { user_id: input.userId, role: row.role };
  });
}

/** The owner removes a member, or a member leaves; the person's next request is refused and their streams end. */
export async function removeMember(db: Db, actor: ThreadActor, input: { threadId: string; userId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const isLeaving = input.userId === actorUserId(actor);
    const { conversation, role } = await requireThreadAccess(tx, actor, input.threadId, isLeaving ? 'read' : 'own');
    if (isLeaving && role === 'owner') {
      throw AppError.validation([{ path: 'user_id', message: 'the owner cannot leave their own conversation' }], 'The owner cannot leave');
    }
    const removed = await tx
      .delete(familyMembers)
      .where(and(eq(familyMembers.familyId, conversation.rootThreadId), eq(familyMembers.userId, input.userId)))
      .returning({ userId: familyMembers.userId });
    if (removed.length === 0) throw AppError.notFound('Member');
    await appendFamilyEvent(tx, { threadId: conversation.rootThreadId, kind: 'member_changed', data: { user_id: input.userId, role: null } });
  });
}
