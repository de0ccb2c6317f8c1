import { Studio } from '@/components/studio/studio';
import { parseReplayParam, parseStepParam } from '@/lib/view-url';
import { getContext } from '@/server/context';
import { requireUser } from '@/server/session';
import { pathAtOpen } from '@/server/path-at-open';

export const dynamic = 'force-dynamic';

/** Deep link: /c/{thread_id}?step={k} names the displayed thread and the previewed step; ?replay={n} a replayed change. */
export default async function ThreadPage({
  params,
  searchParams,
}: {
  params: Promise<{ threadId: string }>;
  searchParams: Promise<{ step?: string; replay?: string }>;
}) {
  const user = await requireUser();
  const { modelLabel, deps } = await getContext();
  const { threadId } = await params;
  const { step, replay } = await searchParams;
  const parsedStep = parseStepParam(step);
  // The live path's transcript is in the page's HTML, and a reply running on it streams in from the
  // page's first moment (a reload mid-reply).
  const opened = parsedStep === null ? await pathAtOpen(deps, user.id, threadId) : null;
  return (
    <Studio
      user={user}
      modelLabel={modelLabel}
      initialThreadId={threadId}
      initialStep={parsedStep}
      initialReplay={parseReplayParam(replay)}
      pathAtOpen={opened}
    />
  );
}
