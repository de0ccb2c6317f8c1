import { Studio } from '@/components/studio/studio';
import { getContext } from '@/server/context';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const user = await requireUser();
  const { modelLabel } = await getContext();
  return <Studio user={user} modelLabel={modelLabel} initialThreadId={null} initialStep={null} />;
}
