// What one upload may cost (docs/architecture.md, "Transcript import"): every check here is one
// linear pass, so a hostile file is refused in time proportional to its size. The byte limit is a
// 413; the shape limits are 422s that say what to do instead.
import { AppError, MAX_TRANSCRIPT_BYTES } from '@trellis/domain';

export const MAX_TRANSCRIPT_RECORDS = 200_000;
export const MAX_IMPORTED_LEAVES = 1_000;
export const MAX_JSON_DEPTH = 256;

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

/**
 * 422 when a line nests objects and arrays deeper than MAX_JSON_DEPTH. Brackets inside strings do
 * not count; every line starts again at depth 0, as JSONL lines are read one by one.
 */
export function assertNestingWithinLimit(content: string): void {
  let depth = 0;
  let inString = false;
  let line = 1;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 10 /* \n */) {
      depth = 0;
      inString = false;
      line++;
    } else if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_JSON_DEPTH) {
        throw limitError(
          `Line ${line} nests JSON deeper than ${MAX_JSON_DEPTH} levels; no transcript record is that deep`,
          { limit: 'depth', max: MAX_JSON_DEPTH, line },
        );
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (depth > 0) depth--;
    }
  }
}

export function assertRecordCountWithinLimit(count: number): void {
  if (count > MAX_TRANSCRIPT_RECORDS) {
    throw limitError(
      `The transcript holds ${count.toLocaleString('en-US')} records; Trellis reads at most ${MAX_TRANSCRIPT_RECORDS.toLocaleString('en-US')} per upload. Split the file by session first`,
      { limit: 'records', max: MAX_TRANSCRIPT_RECORDS, count },
    );
  }
}

export function assertLeafCountWithinLimit(count: number): void {
  if (count > MAX_IMPORTED_LEAVES) {
    throw limitError(
      `The transcript has ${count.toLocaleString('en-US')} leaves; Trellis imports at most ${MAX_IMPORTED_LEAVES.toLocaleString('en-US')} per import. Split the file by session first`,
      { limit: 'leaves', max: MAX_IMPORTED_LEAVES, count },
    );
  }
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
