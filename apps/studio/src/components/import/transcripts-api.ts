// The import page's calls. The browser reads a `.jsonl` file and posts its text as JSON: cookie
// authenticated state changes must be JSON (the CSRF guard), and route handlers read it whole. A
// zipped project folder goes as it is (`application/zip`) to `POST /api/transcripts`, the one route
// that accepts that type.
import {
  TranscriptImportedSchema,
  TranscriptInspectionSchema,
  type ImportTranscript,
  type InspectTranscript,
  type TranscriptImported,
  type TranscriptInspection,
} from '@trellis/domain';
import type { z } from 'zod';
import { ApiError, apiJson, toApiError } from '@/lib/api/http';

export const transcriptsApi = {
  inspect(input: InspectTranscript, signal?: AbortSignal): Promise<TranscriptInspection> {
    return apiJson(TranscriptInspectionSchema, '/api/transcripts/inspect', { method: 'POST', body: input, signal });
  },
  import(input: ImportTranscript): Promise<TranscriptImported> {
    return apiJson(TranscriptImportedSchema, '/api/transcripts/import', { method: 'POST', body: input });
  },
  inspectProject(zip: Uint8Array, filename: string): Promise<TranscriptInspection> {
    return postZip(TranscriptInspectionSchema, projectUrl({ inspect: 'true', filename }), zip);
  },
  importProject(zip: Uint8Array, filename: string, again: boolean): Promise<TranscriptImported> {
    return postZip(TranscriptImportedSchema, projectUrl({ filename, ...(again && { again: 'true' }) }), zip);
  },
};

function projectUrl(query: Record<string, string>): string {
  return `/api/transcripts?${new URLSearchParams(query).toString()}`;
}

async function postZip<S extends z.ZodType>(schema: S, url: string, zip: Uint8Array): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/zip' },
      body: zip as Uint8Array<ArrayBuffer>,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await toApiError(response);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError(response.status, 'bad_response', 'The server sent a response this page does not understand.');
  return parsed.data;
}

/**
 * Where to land after an import: the family's newest leaf (the transcript's last, in physical
 * order), or the first of the separately imported conversations.
 */
export function landingThreadId(imported: TranscriptImported): string | undefined {
  const { conversations, root_thread_id } = imported;
  return root_thread_id === null ? conversations[0]?.thread_id : (conversations.at(-1)?.thread_id ?? root_thread_id);
}
