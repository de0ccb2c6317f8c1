// A body that carries a whole document can be megabytes: parsing it is a synchronous call that
// holds the request thread for tens of milliseconds, so a large one is parsed by the transcript
// worker (as uploads are), and an ordinary save (a few KB) right here.
import { AppError, exceedsJsonDepth } from '@trellis/domain';
import { parseJsonInWorker } from '@trellis/services';
import { getContext } from './context';
import { jsonTooDeep } from './define-route';
import { MAX_JSON_BODY_BYTES } from './read-body';

export async function parseDocumentBody(bytes: Uint8Array): Promise<unknown> {
  if (bytes.byteLength > MAX_JSON_BODY_BYTES) return parseJsonInWorker(bytes, (await getContext()).deps.transcriptJobs);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.length === 0) return {};
  if (exceedsJsonDepth(text)) throw jsonTooDeep();
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The request body is not valid JSON');
  }
}
