import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AppError } from '@trellis/domain';
import { PARTICIPANT_COOKIE, findParticipantSession, readParticipantView } from '@trellis/services';
import { parseStepParam } from '@/lib/view-url';
import { ParticipantStudio } from '@/components/studies/participant-studio';
import { StudyMessage } from '@/components/studies/study-message';
import { getContext } from '@/server/context';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Study · Trellis',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

/**
 * A participant's studio: their session cookie opens their family and nothing else. Without one
 * (another browser, a withdrawn participant) the page says how to come back.
 */
export default async function ParticipantStudioPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; threadId: string }>;
  searchParams: Promise<{ step?: string }>;
}) {
  const { slug, threadId } = await params;
  const { step } = await searchParams;
  const { deps } = await getContext();
  const token = (await cookies()).get(PARTICIPANT_COOKIE)?.value;
  const session = token === undefined ? null : await findParticipantSession(deps.db, token, { touch: false });
  if (!session) {
    return (
      <StudyMessage title="Open the study link again" testId="participant-no-session">
        <p>
          This browser has no session in this study (it may have been opened on another device, or the session
          ended).
        </p>
        <p>
          <Link
            className="text-primary underline underline-offset-2"
            href={`/join/s/${encodeURIComponent(slug)}`}
          >
            Go to the study
          </Link>
        </p>
      </StudyMessage>
    );
  }
  let view;
  try {
    view = await readParticipantView(deps, session, { slug });
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') notFound();
    throw error;
  }
  return (
    <ParticipantStudio
      slug={slug}
      user={{ id: session.userId, name: session.participantId, email: '' }}
      initialView={view}
      initialThreadId={threadId}
      initialStep={parseStepParam(step)}
    />
  );
}
