import { StudyEditor } from '@/components/studies/study-editor';
import { getContext } from '@/server/context';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'New study · Trellis' };

/** Create a study; a condition's model is one this server runs. */
export default async function NewStudyPage() {
  const user = await requireUser();
  const { deps } = await getContext();
  return <StudyEditor email={user.email} models={deps.modelNames} />;
}
