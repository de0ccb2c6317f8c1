// Invitations to a family (docs/architecture.md, "People in a family"): a link with a token of 256
// random bits, shown once; only its sha-256 is stored. One use, a week by default, revocable. No mail
// server: the owner copies the link to whoever they mean.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { AppError, type FamilyRole, type InvitationAccepted, type InvitationCreated, type MemberRole } from '@trellis/domain';
import { familyInvitations, type Db } from '@trellis/db';
import { actorUserId, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { appendFamilyEvent } from '../live/family-events';
import { hashSecretToken, mintSecretToken } from '../auth/secret-token';
import { requireItemId } from '../workspace/ids';

export const DEFAULT_INVITATION_DAYS = 7;

/** The owner invites: the answer holds the only copy of the token (in `url`, relative to the studio). */
export async function createInvitation(
  db: Db,
  actor: ThreadActor,
  input: { threadId: string; role: MemberRole; expiresInDays?: number | undefined },
): Promise<InvitationCreated> {
  const { conversation } = await requireThreadAccess(db, actor, input.threadId, 'own');
  const token = mintSecretToken();
  const days = input.expiresInDays ?? DEFAULT_INVITATION_DAYS;
  const [row] = await db
    .insert(familyInvitations)
    .values({
      familyId: conversation.rootThreadId,
      role: input.role,
      tokenHash: hashSecretToken(token),
      createdBy: actorUserId(actor),
      expiresAt: sql`now() + make_interval(days => ${days})`,
    })
    .returning({ id: familyInvitations.id, expiresAt: familyInvitations.expiresAt });
  return { invitation_id: row!.id, url: `/join/${token}`, role: input.role, expires_at: row!.expiresAt.toISOString() };
}

/** The owner takes back an invitation not yet used; an unknown, used or already revoked one is a 404. */
export async function revokeInvitation(db: Db, actor: ThreadActor, input: { threadId: string; invitationId: string }): Promise<void> {
  const { conversation } = await requireThreadAccess(db, actor, input.threadId, 'own');
  requireItemId(input.invitationId, 'Invitation');
  const revoked = await db
    .update(familyInvitations)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(familyInvitations.id, input.invitationId),
        eq(familyInvitations.familyId, conversation.rootThreadId),
        isNull(familyInvitations.acceptedAt),
        isNull(familyInvitations.revokedAt),
      ),
    )
    .returning({ id: familyInvitations.id });
  if (revoked.length === 0) throw AppError.notFound('Invitation');
}

/**
 * A signed-in person accepts: the invitation is used up and they join with its role (a member who
 * already holds a stronger one keeps it). A used, expired or revoked token — or one of a deleted
 * family — is a 404, the same as a token that never existed. The family's owner opening their own
 * link is told their role and leaves the link unused.
 */
export async function acceptInvitation(db: Db, actor: ThreadActor, input: { token: string }): Promise<InvitationAccepted> {
  const userId = actorUserId(actor);
  return db.transaction(async (tx) => {
    const [invitation] = await tx.execute<{ id: string; family_id: string; role: MemberRole; owner_id: string }>(sql`
      select i.id::text as id, i.family_id, i.role, c.user_id as owner_id
      from family_invitations i join conversations c on c.thread_id = i.family_id
      where i.token_hash = ${hashSecretToken(input.token)} and i.accepted_at is null and i.revoked_at is null
        and i.expires_at > now() and c.deleted_at is null
      for update of i`);
    if (!invitation) throw AppError.notFound('Invitation');
    if (invitation.owner_id === userId) return { thread_id: invitation.family_id, role: 'owner' };
    await tx.execute(sql`
      update family_invitations set accepted_at = now(), accepted_by = ${userId} where id = ${invitation.id}::uuid`);
    const [member] = await tx.execute<{ role: FamilyRole }>(sql`
      insert into family_members (family_id, user_id, role) values (${invitation.family_id}, ${userId}, ${invitation.role})
      on conflict (family_id, user_id) do update set
        role = case when ${roleRank('family_members.role')} >= ${roleRank('excluded.role')} then family_members.role else excluded.role end,
        updated_at = now()
      returning role`);
    await appendFamilyEvent(tx, { threadId: invitation.family_id, kind: 'member_changed', data: { user_id: userId, role: member!.role } });
    return { thread_id: invitation.family_id, role: member!.role };
  });
}

/** A role's rank in SQL (viewer 0 … editor 2), to keep the stronger of two. */
function roleRank(column: string) {
  return sql.raw(`array_position(array['viewer','commenter','editor'], ${column})`);
}
