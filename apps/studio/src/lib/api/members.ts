import {
  InvitationAcceptedSchema,
  InvitationCreatedSchema,
  MemberListSchema,
  type InvitationAccepted,
  type InvitationCreated,
  type MemberList,
  type MemberRole,
} from '@trellis/domain';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

/** The people of a family: members, invitations, and accepting one. */
export const membersApi = {
  list(threadId: string, signal?: AbortSignal): Promise<MemberList> {
    return apiJson(MemberListSchema, apiPaths.members(threadId), { signal });
  },
  invite(threadId: string, role: MemberRole): Promise<InvitationCreated> {
    return apiJson(InvitationCreatedSchema, apiPaths.invitations(threadId), {
      method: 'POST',
      body: { role },
    });
  },
  revokeInvitation(threadId: string, invitationId: string): Promise<void> {
    return apiCall(`${apiPaths.invitations(threadId)}/${encodeURIComponent(invitationId)}`, {
      method: 'DELETE',
    });
  },
  setRole(threadId: string, userId: string, role: MemberRole): Promise<void> {
    return apiCall(apiPaths.member(threadId, userId), { method: 'PATCH', body: { role } });
  },
  remove(threadId: string, userId: string): Promise<void> {
    return apiCall(apiPaths.member(threadId, userId), { method: 'DELETE' });
  },
  accept(token: string): Promise<InvitationAccepted> {
    return apiJson(InvitationAcceptedSchema, `/api/invitations/${encodeURIComponent(token)}/accept`, {
      method: 'POST',
    });
  },
};
