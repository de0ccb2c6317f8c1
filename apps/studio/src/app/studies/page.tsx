import { StudiesListPage } from '@/components/studies/studies-list-page';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Studies · Trellis' };

/** The researcher's studies. */
export default async function StudiesPage() {
  const user = await requireUser();
  return <StudiesListPage email={user.email} />;
}
