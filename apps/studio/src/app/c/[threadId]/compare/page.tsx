import { CompareView } from '@/components/compare/compare-view';
import { PageHeader } from '@/components/ui/page-header';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

/**
 * Deep link: /c/{thread_id}/compare?a={node}&b={node} — the compare of two steps of the family;
 * `&into=a` (or b) opens it to bring the other side's items onto that one.
 */
export default async function ComparePage({
  params,
  searchParams,
}: {
  params: Promise<{ threadId: string }>;
  searchParams: Promise<{ a?: string; b?: string; into?: string }>;
}) {
  const user = await requireUser();
  const { threadId } = await params;
  const { a = '', b = '', into } = await searchParams;
  const side = into === 'a' || into === 'b' ? into : undefined;
  return (
    <div className="flex min-h-dvh flex-col">
      {/* The app's header, with the way back to the conversation the compare was opened from. */}
      <PageHeader section="Compare" email={user.email} back={{ href: `/c/${encodeURIComponent(threadId)}`, label: 'Back to the conversation' }} />
      <CompareView threadId={threadId} a={a} b={b} {...(side ? { into: side } : {})} />
    </div>
  );
}
