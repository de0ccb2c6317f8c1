import { Studio } from '@/components/studio/studio';
import { parseReplayParam, parseStepParam } from '@/lib/view-url';
import { getContext } from '@/server/context';
import { requireUser } from '@/server/session';
import { turnRunningAtOpen } from '@/server/turn-at-open';

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
  // A reply running on the live path streams in from the page's first moment (a reload mid-reply).
  const runningTurn = parsedStep === null ? await turnRunningAtOpen(deps, user.id, threadId) : null;
  return (
    <Studio
      user={user}
      modelLabel={modelLabel}
      initialThreadId={threadId}
      initialStep={parsedStep}
      initialReplay={parseReplayParam(replay)}
      initialRunningTurn={runningTurn}
    />
  );
}
