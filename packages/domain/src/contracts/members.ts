import { z } from 'zod';
import { IsoDateSchema } from './common';

/**
 * What a person may do in a family (docs/architecture.md, "People in a family"): each role holds
 * every right of the ones before it. `owner` is the family's creator and is never a member row.
 */
export const FAMILY_ROLES = ['viewer', 'commenter', 'editor', 'owner'] as const;
export const FamilyRoleSchema = z.enum(FAMILY_ROLES);
export type FamilyRole = z.infer<typeof FamilyRoleSchema>;

/** The roles an invitation or a member can hold (ownership is not handed out). */
export const MemberRoleSchema = z.enum(['viewer', 'commenter', 'editor']);
export type MemberRole = z.infer<typeof MemberRoleSchema>;

export const CreateInvitationSchema = z
  .object({
    role: MemberRoleSchema,
    expires_in_days: z.number().int().min(1).max(30).optional().describe('how long the link stays valid; 7 days by default'),
  })
  .strict();
export type CreateInvitation = z.infer<typeof CreateInvitationSchema>;

export const InvitationCreatedSchema = z.object({
  invitation_id: z.string(),
  url: z.string().describe('the join link (`/join/{token}`); shown once, only a hash of its token is stored'),
  role: MemberRoleSchema,
  expires_at: IsoDateSchema,
});
export type InvitationCreated = z.infer<typeof InvitationCreatedSchema>;

export const InvitationSchema = z.object({
  invitation_id: z.string(),
  role: MemberRoleSchema,
  created_at: IsoDateSchema,
  expires_at: IsoDateSchema,
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const MemberSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  role: FamilyRoleSchema.describe('`owner` for the family’s creator, listed first'),
  joined_at: IsoDateSchema,
});
export type Member = z.infer<typeof MemberSchema>;

export const MemberListSchema = z.object({
  members: z.array(MemberSchema),
  invitations: z
    .array(InvitationSchema)
    .describe('open invitations (not used, revoked or expired); the owner sees them, everyone else an empty list'),
});
export type MemberList = z.infer<typeof MemberListSchema>;

export const UpdateMemberSchema = z.object({ role: MemberRoleSchema }).strict();
export type UpdateMember = z.infer<typeof UpdateMemberSchema>;

export const InvitationAcceptedSchema = z.object({
  thread_id: z.string().describe('the family’s root thread'),
  role: FamilyRoleSchema.describe('the role the caller now holds (`owner` when they opened their own family’s link, which stays unused)'),
});
export type InvitationAccepted = z.infer<typeof InvitationAcceptedSchema>;

/** A join token as it appears in `/join/{token}`: base64url of 32 random bytes. */
export const InvitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not an invitation token');

/** The sender of a user message: an id for the record, a name looked up when shown. */
export const PersonRefSchema = z.object({ user_id: z.string(), name: z.string() });
export type PersonRef = z.infer<typeof PersonRefSchema>;
