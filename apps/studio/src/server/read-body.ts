// Reads a request body by counting the bytes of the stream itself: route
// handlers have no body limit of their own (only Server Actions and the proxy
// do), and a content-length header is only a claim.
import { AppError } from '@trellis/domain';

/** Ordinary JSON routes read at most this much (413 beyond it). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export function bodyTooLarge(maxBytes: number, message?: string): AppError {
  return new AppError('payload_too_large', message ?? `The request body is larger than ${formatBytes(maxBytes)}`, {
    details: { max_bytes: maxBytes },
  });
}

/**
 * The client went away before its body arrived (a closed tab, a cancelled upload): not a fault of
 * the server, so it is logged at `info`, never as an unhandled error.
 */
export class ClientAbortedError extends Error {
  constructor(cause: unknown) {
    super('The request was aborted before its body arrived', { cause });
    this.name = 'ClientAbortedError';
  }
}

/** The body's bytes, undecoded (a large JSON body may be decoded and parsed in a worker: see `parseBody`). */
export async function readCappedBytes(request: Request, maxBytes: number, message?: string): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw bodyTooLarge(maxBytes, message);
  if (request.body === null) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new ClientAbortedError(error);
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(maxBytes, message);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
