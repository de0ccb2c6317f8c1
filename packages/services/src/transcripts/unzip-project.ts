// A zipped project folder (`POST /api/transcripts`) opened into the {path, text} entries that
// @trellis/transcripts' assembleProject reads. Runs in the transcript worker, never on the request
// thread. The sizes are checked from the zip's directory before anything is inflated: more than
// MAX_PROJECT_ENTRIES files, a path that climbs out of the folder (`..`) or starts at the root, or
// bytes that are not a zip are 422s; more than MAX_TRANSCRIPT_BYTES uncompressed is the upload
// size limit's 413.
import { unzipSync } from 'fflate';
import { AppError, MAX_PROJECT_ENTRIES, MAX_TRANSCRIPT_BYTES } from '@trellis/domain';
import type { ProjectEntry } from '@trellis/transcripts';

const MB = 1024 * 1024;
const ZIP_SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04], // a local file header: a zip with files
  [0x50, 0x4b, 0x05, 0x06], // an end of central directory first: an empty zip
];

export function unzipProject(bytes: Uint8Array): ProjectEntry[] {
  if (!ZIP_SIGNATURES.some((signature) => signature.every((byte, i) => bytes[i] === byte))) {
    throw refused(
      'The upload is not a zip file: zip the project folder (its .jsonl files and subagents/ folders)',
      'not-a-zip',
    );
  }
  let count = 0;
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (++count > MAX_PROJECT_ENTRIES) {
          throw refused(
            `The zip holds more than ${MAX_PROJECT_ENTRIES} entries; zip one project folder`,
            'too-many-entries',
            {
              max: MAX_PROJECT_ENTRIES,
            },
          );
        }
        if (isUnsafePath(file.name)) {
          throw refused(
            `The zip entry “${file.name.slice(0, 200)}” leaves the folder (.. or an absolute path)`,
            'unsafe-path',
            {
              entry: file.name.slice(0, 200),
            },
          );
        }
        total += file.originalSize;
        if (total > MAX_TRANSCRIPT_BYTES) throw tooLarge();
        return !file.name.endsWith('/');
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refused(
      'The zip file could not be read: it is damaged or uses an unsupported compression',
      'not-a-zip',
      {
        cause: error instanceof Error ? error.message : String(error),
      },
    );
  }
  const decoder = new TextDecoder();
  const entries: ProjectEntry[] = [];
  let inflated = 0;
  for (const [path, data] of Object.entries(files)) {
    // The directory's sizes are the zip's claim: the inflated bytes are counted too.
    inflated += data.byteLength;
    if (inflated > MAX_TRANSCRIPT_BYTES) throw tooLarge();
    entries.push({ path, text: decoder.decode(data) });
  }
  return entries;
}

function isUnsafePath(name: string): boolean {
  const path = name.replaceAll('\\', '/');
  return path.startsWith('/') || /^[a-z]:/i.test(path) || path.split('/').includes('..');
}

function tooLarge(): AppError {
  return new AppError(
    'payload_too_large',
    `The project folder is larger than ${MAX_TRANSCRIPT_BYTES / MB} MB unzipped; zip fewer sessions`,
    { details: { max_bytes: MAX_TRANSCRIPT_BYTES } },
  );
}

function refused(message: string, reason: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('validation_failed', message, {
    details: { issues: [{ path: 'body', message }], reason, ...extra },
  });
}
