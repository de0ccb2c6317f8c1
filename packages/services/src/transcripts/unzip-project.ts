// A zipped project folder (`POST /api/transcripts`) opened into the {path, text} entries that
// @trellis/transcripts' assembleProject reads. Runs in the transcript worker, never on the request
// thread. The sizes are checked from the zip's directory before anything is inflated: more than
// MAX_PROJECT_ENTRIES files, a path that climbs out of the folder (`..`) or starts at the root,
// entries whose data overlap, or bytes that are not a zip are 422s; more than MAX_TRANSCRIPT_BYTES
// uncompressed is the upload size limit's 413; an entry that inflates past the size it claims is
// a 422 the moment it does, so no entry costs more than its claim.
import { Inflate } from 'fflate';
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
  const directory = readDirectory(bytes);
  let total = 0;
  for (const entry of directory) {
    if (isUnsafePath(entry.name)) {
      throw refused(`The zip entry “${entry.name.slice(0, 200)}” leaves the folder (.. or an absolute path)`, 'unsafe-path', {
        entry: entry.name.slice(0, 200),
      });
    }
    total += entry.size;
    if (total > MAX_TRANSCRIPT_BYTES) throw tooLarge();
  }
  const files = directory.filter((entry) => !entry.name.endsWith('/'));
  refuseOverlaps(files);
  const decoder = new TextDecoder();
  return files.map((entry) => ({ path: entry.name, text: decoder.decode(inflateEntry(bytes, entry)) }));
}

/** An entry as the zip's central directory describes it. */
interface DirectoryEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** The uncompressed size the directory claims: inflating never goes past it. */
  size: number;
  headerOffset: number;
  /** Where the entry's data starts (after its local header). */
  dataStart: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

/**
 * The central directory, read by hand because it is where a hostile zip lies: fflate's
 * `unzipSync` inflates each entry into a buffer of its claimed size and keeps decoding past it
 * (typed arrays drop the excess without a word), so an entry that claims 10 KB and inflates to
 * 1 GB costs the gigabyte. Here every claim is checked before a byte is inflated, and the
 * inflation stops at the claim.
 */
function readDirectory(bytes: Uint8Array): DirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = (why: string) => refused('The zip file could not be read: it is damaged or uses an unsupported compression', 'not-a-zip', { cause: why });
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw damaged('no end of central directory');
  const count = view.getUint16(eocd + 10, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (count > MAX_PROJECT_ENTRIES) {
    throw refused(`The zip holds more than ${MAX_PROJECT_ENTRIES} entries; zip one project folder`, 'too-many-entries', { max: MAX_PROJECT_ENTRIES });
  }
  const decoder = new TextDecoder();
  const entries: DirectoryEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw damaged('a central directory entry is missing');
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const headerOffset = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    // Zip64 sizes are for entries over 4 GB: far past the upload limit.
    if (size === ZIP64_MARK || compressedSize === ZIP64_MARK || headerOffset === ZIP64_MARK) throw tooLarge();
    if (method !== 0 && method !== 8) throw damaged(`entry ${name.slice(0, 200)} uses compression method ${method}`);
    if (headerOffset + 30 > bytes.length || view.getUint32(headerOffset, true) !== LOCAL) throw damaged('a local header is missing');
    const dataStart = headerOffset + 30 + view.getUint16(headerOffset + 26, true) + view.getUint16(headerOffset + 28, true);
    if (dataStart + compressedSize > bytes.length) throw damaged(`entry ${name.slice(0, 200)} runs past the end of the file`);
    entries.push({ name, method, compressedSize, size, headerOffset, dataStart });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Entries whose data overlap are one stream read many times (a zip bomb's trick): refused. */
function refuseOverlaps(entries: readonly DirectoryEntry[]): void {
  const sorted = [...entries].sort((a, b) => a.headerOffset - b.headerOffset);
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    if (sorted[i]!.headerOffset < before.dataStart + before.compressedSize) {
      throw refused('The zip’s entries overlap (one stream counted many times): zip the project folder again', 'overlapping-entries', {
        entry: sorted[i]!.name.slice(0, 200),
      });
    }
  }
}

/** Bytes of compressed data given to the inflater at a time. */
const SLICE = 64 * 1024;

/** An entry's bytes; refused the moment it inflates past the size the directory claims. */
function inflateEntry(bytes: Uint8Array, entry: DirectoryEntry): Uint8Array {
  const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const lies = () =>
    refused(`The zip entry “${entry.name.slice(0, 200)}” does not hold the ${entry.size} bytes the zip says it does`, 'size-mismatch', {
      entry: entry.name.slice(0, 200),
    });
  if (entry.method === 0) {
    if (data.length !== entry.size) throw lies();
    return data;
  }
  const out = new Uint8Array(entry.size);
  let written = 0;
  const inflater = new Inflate((chunk) => {
    if (written + chunk.length > entry.size) throw lies();
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < data.length; at += SLICE) inflater.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refused('The zip file could not be read: it is damaged or uses an unsupported compression', 'not-a-zip', {
      cause: error instanceof Error ? error.message : String(error),
    });
  }
  if (written !== entry.size) throw lies();
  return out;
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
