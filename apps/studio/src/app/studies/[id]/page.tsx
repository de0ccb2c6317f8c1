import { StudyDashboard } from '@/components/studies/study-dashboard';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Study · Trellis' };

/** A study's dashboard; anyone but its owner reads the API's 404, shown as the page's error. */
export default async function StudyPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const { id } = await params;
  return <StudyDashboard email={user.email} studyId={id} />;
}
