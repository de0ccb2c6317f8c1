// Entry of the Word export's worker thread: one document per worker (run-docx-job.ts). The file is
// built here, then goes out a slice per message, each sent when the request thread asks for the
// next (its response took the one before), so the request thread never holds the whole file.
import { parentPort, workerData } from 'node:worker_threads';
import { documentToMarkdown } from '@trellis/domain';
import { markdownToDocx } from './markdown-to-docx';
import { DOCX_SLICE_BYTES, type DocxJob, type DocxMessage } from './docx-job';

const { pathTitle, document, title } = workerData as DocxJob;

function send(bytes: Uint8Array): void {
  let at = 0;
  const sendNext = () => {
    if (at >= bytes.length) {
      parentPort?.postMessage({ done: true } satisfies DocxMessage);
      return;
    }
    // A copy of the slice, moved (not copied again) to the request thread.
    const slice = bytes.slice(at, at + DOCX_SLICE_BYTES);
    at += DOCX_SLICE_BYTES;
    parentPort?.postMessage({ slice } satisfies DocxMessage, [slice.buffer]);
  };
  parentPort?.on('message', sendNext);
  sendNext();
}

// A build that throws ends the worker with an error: the request thread answers it (run-docx-job.ts).
void markdownToDocx(documentToMarkdown({ pathTitle, document }), { title }).then(send);
