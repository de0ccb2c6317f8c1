import { CompareView } from '@/components/compare/compare-view';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

/** Deep link: /c/{thread_id}/compare?a={node}&b={node} — the compare of two steps of the family. */
export default async function ComparePage({
  params,
  searchParams,
}: {
  params: Promise<{ threadId: string }>;
  searchParams: Promise<{ a?: string; b?: string }>;
}) {
  await requireUser();
  const { threadId } = await params;
  const { a = '', b = '' } = await searchParams;
  return <CompareView threadId={threadId} a={a} b={b} />;
}
