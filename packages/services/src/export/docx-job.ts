// What the request thread and the Word export's worker (docx-worker.ts) say to each other.

/**
 * The document to write as a Word file (made into Markdown in the worker too: that also follows the
 * document's size), and the title that goes into the file's properties.
 */
export interface DocxJob {
  pathTitle: string;
  document: { title: string; content: string };
  title: string;
}

/** A slice of the built file, or the end of it; the request thread answers each slice with a request for the next. */
export type DocxMessage = { slice: Uint8Array } | { done: true };

/** Bytes of the built file per message. */
export const DOCX_SLICE_BYTES = 64 * 1024;
