// The body of a transcript upload. Route handlers have no body limit of their own (only Server
// Actions and the proxy do), so this one reads the stream itself and stops at a cap: the 20 MB
// content limit plus JSON's escaping of it (quotes and newlines take two bytes each). The
// content's own limit is the service's 413; this one only bounds memory.
import type { z } from 'zod';
import { AppError, MAX_TRANSCRIPT_BYTES } from '@trellis/domain';
import { parseParam } from '@/server/http';

export const MAX_TRANSCRIPT_BODY_BYTES = 3 * MAX_TRANSCRIPT_BYTES;

export async function readTranscriptBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_TRANSCRIPT_BODY_BYTES) throw tooLarge();
  const text = await readCapped(request);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The request body is not valid JSON');
  }
  return parseParam(schema, body);
}

async function readCapped(request: Request): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_TRANSCRIPT_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function tooLarge(): AppError {
  return new AppError(
    'payload_too_large',
    `The upload is larger than ${MAX_TRANSCRIPT_BODY_BYTES / (1024 * 1024)} MB; transcripts may be at most ${MAX_TRANSCRIPT_BYTES / (1024 * 1024)} MB`,
    { details: { max_bytes: MAX_TRANSCRIPT_BYTES } },
  );
}
