import type { Metadata } from 'next';
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
  const { deps } = await getContext();
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
  return <ConsentPage slug={slug} study={study} ids={ids} />;
}
