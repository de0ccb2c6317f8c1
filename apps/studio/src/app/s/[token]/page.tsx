import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { AppError } from '@trellis/domain';
import { resolveShare } from '@trellis/services';
import { SharedStudio } from '@/components/share/shared-studio';
import { getContext } from '@/server/context';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Shared · Trellis',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

/**
 * A read-only link (docs/sharing.md), open to anyone who holds it. A link that no longer works
 * answers 404 with a page that says so; a live one renders the reader, which reads through
 * `/api/shared/{token}`.
 */
export default async function SharedPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { deps, auth } = await getContext();
  try {
    await resolveShare(deps, token);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') notFound();
    throw error;
  }
  const session = await auth.api.getSession({ headers: await headers() });
  return <SharedStudio token={token} isSignedIn={session !== null} />;
}
