import { headers } from 'next/headers';
import { AuthForm } from '@/components/auth/auth-form';
import { JoinInvitation } from '@/components/members/join-invitation';
import { getContext } from '@/server/context';

export const dynamic = 'force-dynamic';

/**
 * An invitation link. Signed out, the page asks to sign up (or sign in) first and comes back here;
 * signed in, one button joins — the token is used only when the person says so.
 */
export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { auth } = await getContext();
  const session = await auth.api.getSession({ headers: await headers() });
  const here = `/join/${encodeURIComponent(token)}`;
  if (!session) {
    return (
      <AuthForm
        mode="sign-up"
        next={here}
        intro="You were invited to a conversation. Create an account, or sign in, to join it."
      />
    );
  }
  return <JoinInvitation token={token} name={session.user.name} />;
}
