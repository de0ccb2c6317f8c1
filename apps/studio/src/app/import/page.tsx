import { ImportTranscriptPage } from '@/components/import/import-transcript-page';
import { requireUser } from '@/server/session';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Import a transcript · Trellis' };

/** Upload an agent transcript and import its leaves. */
export default async function ImportPage() {
  const user = await requireUser();
  return <ImportTranscriptPage email={user.email} />;
}
