'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { errorMessage, isApiError } from '@/lib/api/http';
import { membersApi } from '@/lib/api/members';

/** The join page for a signed-in person: accept, then open the conversation. */
export function JoinInvitation({ token, name }: { token: string; name: string }) {
  const router = useRouter();
  const join = useMutation({
    mutationFn: () => membersApi.accept(token),
    onSuccess: ({ thread_id }) => router.replace(`/c/${encodeURIComponent(thread_id)}`),
  });
  const isGone = join.isError && isApiError(join.error) && join.error.code === 'not_found';
  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <div
        className="w-full max-w-sm space-y-4 rounded-xl border bg-card p-6 shadow-sm"
        data-testid="join-page"
      >
        <h1 className="text-xl font-semibold">
          <span className="text-primary">Trellis</span> · Join a conversation
        </h1>
        {isGone ? (
          <p role="alert" className="text-sm" data-testid="join-gone">
            This invitation was already used, was revoked, or has expired. Ask for a new link.
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">
            {name}, you were invited to a conversation. Joining lets you see every path of it, and — if the
            link says so — write in it.
          </p>
        )}
        {join.isError && !isGone && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(join.error)}
          </p>
        )}
        {!isGone && (
          <Button
            className="w-full"
            onClick={() => join.mutate()}
            disabled={join.isPending || join.isSuccess}
            data-testid="join-accept"
          >
            {join.isPending || join.isSuccess ? 'Joining…' : 'Join the conversation'}
          </Button>
        )}
        <p className="text-center text-sm">
          <Link className="text-primary underline" href="/">
            Go to your conversations
          </Link>
        </p>
      </div>
    </main>
  );
}
