'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Conversation, MemberRole } from '@trellis/domain';
import { Check, Copy, Users } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api/http';
import { membersApi } from '@/lib/api/members';
import { queryKeys } from '@/lib/api/query-keys';
import { ROLE_LABELS } from './role-labels';

const MEMBER_ROLES: MemberRole[] = ['editor', 'commenter', 'viewer'];

/**
 * "People" in the header: who is in this family and with which role. The owner invites (a link to
 * copy, shown once — there is no mail server), changes roles, removes people and revokes open
 * invitations; anyone else sees the list and may leave.
 */
export function MembersDialog({
  conversation,
  currentUserId,
  onLeft,
}: {
  conversation: Conversation;
  currentUserId: string;
  onLeft: () => void;
}) {
  const [isOpen, setOpen] = useState(false);
  return (
    <Dialog open={isOpen} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="px-2 md:px-3"
          data-testid="members-open"
          title="People in this conversation"
        >
          <Users aria-hidden /> <span className="hidden md:inline">People</span>
          <span className="sr-only md:hidden">People</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg" data-testid="members-dialog">
        {isOpen && <MembersBody conversation={conversation} currentUserId={currentUserId} onLeft={onLeft} />}
      </DialogContent>
    </Dialog>
  );
}

function MembersBody({
  conversation,
  currentUserId,
  onLeft,
}: {
  conversation: Conversation;
  currentUserId: string;
  onLeft: () => void;
}) {
  const threadId = conversation.thread_id;
  const isOwner = conversation.role === 'owner';
  const queryClient = useQueryClient();
  const key = queryKeys.members(conversation.root_thread_id);
  const members = useQuery({ queryKey: key, queryFn: ({ signal }) => membersApi.list(threadId, signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const change = useMutation({
    mutationFn: (action: () => Promise<unknown>) => action(),
    onSettled: refresh,
  });
  return (
    <>
      <DialogTitle>People in this conversation</DialogTitle>
      <DialogDescription>
        {isOwner
          ? 'Everyone here sees every path of this conversation. Invite someone with a link; it works once, for 7 days.'
          : `Shared with you by ${conversation.owner?.name ?? 'its owner'}. You ${ROLE_LABELS[conversation.role].toLowerCase()}.`}
      </DialogDescription>
      {isOwner && <InviteForm threadId={threadId} onInvited={refresh} />}
      {members.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(members.error)}
        </p>
      )}
      <ul className="divide-y rounded-md border" aria-label="Members" data-testid="members-list">
        {(members.data?.members ?? []).map((member) => (
          <li
            key={member.user_id}
            className="flex items-center gap-3 px-3 py-2 text-sm"
            data-testid="member-row"
            data-role={member.role}
          >
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">
                {member.name}
                {member.user_id === currentUserId && (
                  <span className="font-normal text-muted-foreground"> (you)</span>
                )}
              </span>
              <span className="block truncate text-xs text-muted-foreground">{member.email}</span>
            </span>
            {isOwner && member.role !== 'owner' ? (
              <>
                <label className="sr-only" htmlFor={`role-${member.user_id}`}>
                  Role of {member.name}
                </label>
                <select
                  id={`role-${member.user_id}`}
                  value={member.role}
                  className="h-8 rounded-md border bg-background px-2 text-sm"
                  data-testid="member-role"
                  onChange={(event) =>
                    change.mutate(() =>
                      membersApi.setRole(threadId, member.user_id, event.target.value as MemberRole),
                    )
                  }
                >
                  {MEMBER_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </option>
                  ))}
                </select>
                <Button
                  variant="ghost"
                  size="sm"
                  data-testid="member-remove"
                  aria-label={`Remove ${member.name}`}
                  onClick={() => change.mutate(() => membersApi.remove(threadId, member.user_id))}
                >
                  Remove
                </Button>
              </>
            ) : (
              <span className="text-xs text-muted-foreground">{ROLE_LABELS[member.role]}</span>
            )}
            {!isOwner && member.user_id === currentUserId && (
              <Button
                variant="outline"
                size="sm"
                data-testid="member-leave"
                onClick={() => change.mutate(() => membersApi.remove(threadId, currentUserId).then(onLeft))}
              >
                Leave
              </Button>
            )}
          </li>
        ))}
      </ul>
      {isOwner && (members.data?.invitations.length ?? 0) > 0 && (
        <section aria-label="Open invitations" className="space-y-1">
          <h3 className="text-sm font-medium">Open invitations</h3>
          <ul className="space-y-1 text-sm" data-testid="invitations-list">
            {members.data!.invitations.map((invitation) => (
              <li key={invitation.invitation_id} className="flex items-center justify-between gap-2">
                <span>
                  {ROLE_LABELS[invitation.role]} · until{' '}
                  {new Date(invitation.expires_at).toLocaleDateString()}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  data-testid="invitation-revoke"
                  onClick={() =>
                    change.mutate(() => membersApi.revokeInvitation(threadId, invitation.invitation_id))
                  }
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {change.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(change.error)}
        </p>
      )}
    </>
  );
}

function InviteForm({ threadId, onInvited }: { threadId: string; onInvited: () => void }) {
  const [role, setRole] = useState<MemberRole>('editor');
  const [isCopied, setCopied] = useState(false);
  const roleId = useId();
  const linkId = useId();
  const invite = useMutation({
    mutationFn: () => membersApi.invite(threadId, role),
    onSuccess: () => {
      setCopied(false);
      onInvited();
    },
  });
  const copy = async (url: string) => {
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div className="space-y-2 rounded-md border bg-muted/30 p-3">
      <div className="flex items-end gap-2">
        <div className="flex-1 space-y-1">
          <label htmlFor={roleId} className="text-sm font-medium">
            Invite someone who
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as MemberRole)}
            className="h-9 w-full rounded-md border bg-background px-2 text-sm"
            data-testid="invite-role"
          >
            {MEMBER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r].toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        <Button onClick={() => invite.mutate()} disabled={invite.isPending} data-testid="invite-create">
          Create link
        </Button>
      </div>
      {invite.data && (
        <div className="space-y-1">
          <label htmlFor={linkId} className="text-sm">
            Send this link to them; it is shown only now.
          </label>
          <div className="flex gap-2">
            <input
              id={linkId}
              readOnly
              value={invite.data.url}
              onFocus={(event) => event.currentTarget.select()}
              className="h-9 min-w-0 flex-1 rounded-md border bg-background px-2 font-mono text-xs"
              data-testid="invite-url"
            />
            <Button variant="outline" onClick={() => void copy(invite.data.url)} data-testid="invite-copy">
              {isCopied ? <Check aria-hidden /> : <Copy aria-hidden />} {isCopied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </div>
      )}
      {invite.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(invite.error)}
        </p>
      )}
    </div>
  );
}
