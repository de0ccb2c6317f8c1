// The body limit of a transcript upload: the 20 MB content limit plus JSON's
// escaping of it (quotes and newlines take two bytes each). The content's own
// limit is the service's 413; this one only bounds memory while reading.
import { MAX_TRANSCRIPT_BYTES } from '@trellis/domain';
import { parseJsonInWorker } from '@trellis/services';
import { getContext } from '@/server/context';

export const MAX_TRANSCRIPT_BODY_BYTES = 3 * MAX_TRANSCRIPT_BYTES;

export const TRANSCRIPT_TOO_LARGE = `The upload is larger than ${MAX_TRANSCRIPT_BODY_BYTES / (1024 * 1024)} MB; transcripts may be at most ${MAX_TRANSCRIPT_BYTES / (1024 * 1024)} MB`;

/**
 * Decoding and parsing an upload of up to 60 MB blocks whatever thread does it for most of a
 * second: the transcript worker does it, so the request thread keeps serving everyone else.
 */
export async function parseTranscriptBody(bytes: Uint8Array): Promise<unknown> {
  return parseJsonInWorker(bytes, (await getContext()).deps.transcriptJobs);
}
