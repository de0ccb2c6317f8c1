// What one upload may cost (docs/architecture.md, "Uploads cannot hurt anyone else"): the byte
// limit is a 413; the reader's shape limits (records, nesting, leaves; @trellis/transcripts)
// become 422s that say what was refused. And the cleaning that makes imported text storable.
import { AppError, MAX_TRANSCRIPT_BYTES } from '@trellis/domain';
import type { TranscriptLimitError } from '@trellis/transcripts';

const MB = 1024 * 1024;

/** 413 past the limit. UTF-8 never takes fewer bytes than UTF-16 code units, so long text fails fast. */
export function assertWithinByteLimit(content: string): void {
  if (content.length > MAX_TRANSCRIPT_BYTES || Buffer.byteLength(content, 'utf8') > MAX_TRANSCRIPT_BYTES) {
    throw new AppError(
      'payload_too_large',
      `The transcript is larger than ${MAX_TRANSCRIPT_BYTES / MB} MB; split it or remove old sessions first`,
      { details: { max_bytes: MAX_TRANSCRIPT_BYTES } },
    );
  }
}

/** 413 past the limit, for a JSONL text or a zip's compressed bytes (its unzipped size is checked as it opens). */
export function assertUploadWithinByteLimit(upload: { content: string } | { zip: Uint8Array }): void {
  if ('content' in upload) return assertWithinByteLimit(upload.content);
  if (upload.zip.byteLength > MAX_TRANSCRIPT_BYTES) {
    throw new AppError('payload_too_large', `The zip is larger than ${MAX_TRANSCRIPT_BYTES / MB} MB; zip fewer sessions`, {
      details: { max_bytes: MAX_TRANSCRIPT_BYTES },
    });
  }
}

/**
 * The reader's refusal as a 422 naming the limit: too many records, a line nested too deep, or
 * too many leaves — each the file's shape, not its size (the byte limit is the 413).
 */
export function limitRefusal(error: TranscriptLimitError): AppError {
  const { message, kind, limit, ...rest } = error;
  const advice = kind === 'nesting-too-deep' ? '; no transcript record is that deep' : '';
  return limitError(`${message}${advice}`, { reason: kind, max: limit, ...rest });
}

function limitError(message: string, details: Record<string, unknown>): AppError {
  const path = 'content';
  return new AppError('validation_failed', message, { details: { issues: [{ path, message }], ...details } });
}

/** Text Postgres can store: NUL characters removed, lone surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `storableText` over every string (and object key) of a JSON value. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[storableText(key)] = storableJson(item);
    return out as T;
  }
  return value;
}
