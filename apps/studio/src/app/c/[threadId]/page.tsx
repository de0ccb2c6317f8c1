import { Studio } from '@/components/studio/studio';
import { parseReplayParam } from '@/lib/view-url';
import { getContext } from '@/server/context';
import { requireUser } from '@/server/session';

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
  const { modelLabel } = await getContext();
  const { threadId } = await params;
  const { step, replay } = await searchParams;
  const parsedStep = step !== undefined && /^\d+$/.test(step) ? Number(step) : null;
  return (
    <Studio
      user={user}
      modelLabel={modelLabel}
      initialThreadId={threadId}
      initialStep={parsedStep}
      initialReplay={parseReplayParam(replay)}
    />
  );
}
