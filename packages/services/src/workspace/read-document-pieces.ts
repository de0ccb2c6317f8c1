import type { Db } from '@trellis/db';

/**
 * UTF-8 bytes of the document decoded into one piece at a time: at most 32 K UTF-16 units, so even a
 * two-byte string stays under V8's large-object size (128 KB).
 */
const PIECE_BYTES = 32 * 1024;

/**
 * A thread's document text (none without a document) as pieces whose concatenation is the text,
 * decoded from the row's bytes as they came. No string of the document's size is made: V8 puts any
 * string over 128 KB in its large-object space, which only a full collection frees, so an export
 * that read one whole document per path piled them up until it did.
 */
export async function readDocumentPieces(db: Db, threadId: string): Promise<string[]> {
  const [row] = await db.$client`select content from documents where thread_id = ${threadId}`.raw();
  const bytes: Uint8Array | null | undefined = row?.[0];
  if (!bytes) return [];
  // A character cut between two pieces of bytes is held back for the next (`stream: true`); a
  // byte order mark that opens the text is the text's, as postgres.js's own decoding keeps it.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const pieces: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    pieces.push(decoder.decode(bytes.subarray(at, at + PIECE_BYTES), { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.filter((piece) => piece !== '');
}
