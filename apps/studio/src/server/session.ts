import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getContext } from './context';

/** The signed-in user for a page, or a redirect to the sign-in page. */
export async function requireUser(): Promise<{ id: string; name: string; email: string }> {
  const { auth } = await getContext();
  const session = await auth.api.getSession({ headers: await headers() });
  if (!session) redirect('/sign-in');
  return { id: session.user.id, name: session.user.name, email: session.user.email };
}
