import Link from 'next/link';
import { Studio } from '@/components/studio/studio';
import { PageHeader } from '@/components/ui/page-header';
import { parseReplayParam, parseStepParam } from '@/lib/view-url';
import { getContext } from '@/server/context';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export const metadata = { title: "A participant's family · Trellis" };

/**
 * The researcher reading one participant's family: the studio with its map, authorship and replay,
 * but nothing to write with. The family is the researcher's own (a study seeds each participant's
 * family under its owner), so the ordinary access rule lets them read it; this page only takes
 * the writing away, so a look never changes a participant's record.
 */
export default async function ParticipantFamilyPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; threadId: string }>;
  searchParams: Promise<{ step?: string; replay?: string }>;
}) {
  const user = await requireUser();
  const { modelLabel } = await getContext();
  const { id, threadId } = await params;
  const { step, replay } = await searchParams;
  const dashboard = `/studies/${encodeURIComponent(id)}`;
  return (
    <Studio
      user={user}
      modelLabel={modelLabel}
      initialThreadId={threadId}
      initialStep={parseStepParam(step)}
      initialReplay={parseReplayParam(replay)}
      narrowed={{
        root: dashboard,
        header: (
          <PageHeader
            section="A participant's family (read only)"
            email={user.email}
            back={{ href: dashboard, label: 'Dashboard' }}
          />
        ),
        side: (
          <section
            className="space-y-2 p-3 text-sm"
            aria-labelledby="participant-family-title"
            data-testid="participant-family-note"
          >
            <h2 id="participant-family-title" className="font-semibold">
              Reading a participant&apos;s family
            </h2>
            <p className="text-muted-foreground">
              Read only: the map, who wrote what, and the replay of every change. Nothing you do here writes
              to their record.
            </p>
            <Link className="text-primary underline underline-offset-2" href={dashboard}>
              Back to the dashboard
            </Link>
          </section>
        ),
        sideLabel: 'About',
        isLinear: false,
        readOnlyNote: "You are reading a participant's family: nothing is written from here.",
      }}
    />
  );
}
