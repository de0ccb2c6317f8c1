import type { TranscriptInspection } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { inspectInWorker } from './run-transcript-job';
import type { AnyUpload } from './transcript-job';
import { consumeUploadAllowance } from './upload-rate-limit';
import { assertUploadWithinByteLimit } from './upload-limits';

/**
 * What a transcript holds, without writing anything: every semantic leaf with its summary, the
 * inspector's and the reader's diagnostics (the first MAX_LISTED_DIAGNOSTICS of each, with their
 * counts), the detected format, and what importing each leaf would bring in. Read in a worker
 * (run-transcript-job.ts); a zipped project folder is read as one family (open-project.ts). 413 over the size limit; 422 over a shape limit or when no leaf
 * remains; 429 past the user's upload allowance; 503 past the deadline.
 */
export async function inspectTranscript(
  deps: Pick<ServiceDeps, 'db' | 'transcriptJobs'>,
  actor: ThreadActor,
  upload: AnyUpload,
): Promise<TranscriptInspection> {
  await consumeUploadAllowance(deps, actor.userId);
  assertUploadWithinByteLimit(upload);
  const { filename } = upload;
  const sent = 'zip' in upload ? { zip: upload.zip, filename } : { content: upload.content, filename };
  return inspectInWorker({ kind: 'inspect', upload: sent }, deps.transcriptJobs);
}
