// The import page's two calls. The browser reads the file and posts its text as JSON: cookie
// authenticated state changes must be JSON (the CSRF guard), and route handlers read it whole.
import {
  TranscriptImportedSchema,
  TranscriptInspectionSchema,
  type ImportTranscript,
  type InspectTranscript,
  type TranscriptImported,
  type TranscriptInspection,
} from '@trellis/domain';
import { apiJson } from '@/lib/api/http';

export const transcriptsApi = {
  inspect(input: InspectTranscript, signal?: AbortSignal): Promise<TranscriptInspection> {
    return apiJson(TranscriptInspectionSchema, '/api/transcripts/inspect', { method: 'POST', body: input, signal });
  },
  import(input: ImportTranscript): Promise<TranscriptImported> {
    return apiJson(TranscriptImportedSchema, '/api/transcripts/import', { method: 'POST', body: input });
  },
};

/**
 * Where to land after an import: the family's newest leaf (the transcript's last, in physical
 * order), or the first of the separately imported conversations.
 */
export function landingThreadId(imported: TranscriptImported): string | undefined {
  const { conversations, root_thread_id } = imported;
  return root_thread_id === null ? conversations[0]?.thread_id : (conversations.at(-1)?.thread_id ?? root_thread_id);
}
