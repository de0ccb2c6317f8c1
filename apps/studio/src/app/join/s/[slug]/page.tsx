import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { AppError } from '@trellis/domain';
import { readStudyLanding } from '@trellis/services';
import { ConsentPage, type JoinIds } from '@/components/studies/consent-page';
import { getContext } from '@/server/context';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Study · Trellis',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

const ID_NAMES = ['pid', 'PROLIFIC_PID', 'STUDY_ID', 'SESSION_ID'] as const;

/**
 * A study's one open link (docs/studies.md): its consent, then Agree or Decline. The ids a panel
 * appends (`?pid=`, `PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID`) go with the Agree; the join route
 * checks them.
 */
export default async function StudyLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const query = await searchParams;
  const { deps, auth } = await getContext();
  let study;
  try {
    study = await readStudyLanding(deps, { slug });
  } catch (error) {
    if (error instanceof AppError && (error.code === 'not_found' || error.code === 'validation_failed'))
      notFound();
    throw error;
  }
  const ids: JoinIds = {};
  for (const name of ID_NAMES) {
    const value = query[name];
    if (typeof value === 'string' && value.trim() !== '') ids[name] = value;
  }
  // Signed in, this browser's account (not a participant session) is what the studio's requests
  // carry; the page says so, for a researcher trying their own link.
  const session = await auth.api.getSession({ headers: await headers() });
  return <ConsentPage slug={slug} study={study} ids={ids} signedInAs={session?.user.email ?? null} />;
}
