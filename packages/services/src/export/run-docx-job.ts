// A Word export is built off the request thread (docs/architecture.md, "Documents out"): parsing the
// Markdown and writing the file take seconds for a document at the size limit, all of it one
// synchronous run that would hold the event loop of every other request. Like the transcript reader
// and the stale-save merge, it runs in a worker thread of its own (jobs/job-worker.ts), at most
// MAX_CONCURRENT_DOCX_JOBS at once, within a deadline that includes waiting for a slot.
//
// The file then streams: the worker holds it and hands it over a slice at a time, each when the
// response has taken the one before (docx-worker.ts), so the request thread holds a slice, never the
// file. The worker and its slot are freed when the response is done, is cancelled, or has not taken
// the file within a second deadline as long as the first.
import { Worker } from 'node:worker_threads';
import { AppError } from '@trellis/domain';
import { startJobWorker, type WorkerJobOptions } from '../jobs/job-worker';
import { Slots } from '../jobs/slots';
import type { DocxJob, DocxMessage } from './docx-job';

/** How long building one Word file may take, waiting for a slot included, unless the caller says otherwise. */
export const DEFAULT_DOCX_JOB_DEADLINE_MS = 30_000;
/** Word files built at once in this process; more wait their turn (until their deadline). */
export const MAX_CONCURRENT_DOCX_JOBS = 2;
/** A document at the size limit takes a few hundred MB to write (measured ~210 MB of RSS). */
const WORKER_HEAP_MB = 1_024;

const slots = new Slots(
  MAX_CONCURRENT_DOCX_JOBS,
  () => new AppError('unavailable', 'The studio is busy writing other Word files; try again in a moment'),
);

/**
 * The document as a Word file, a stream of its bytes. Resolves once the file is built, so that a build
 * past the deadline (waiting for a slot included) is a 503 that says so and one that needs more
 * memory than a worker has a 422, both before any byte of the response.
 */
export async function docxInWorker(job: DocxJob, options: WorkerJobOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DOCX_JOB_DEADLINE_MS;
  const startedAt = Date.now();
  const release = await slots.acquire(deadlineMs);
  const delivery = new Delivery(release, deadlineMs);
  try {
    const worker = startJobWorker(
      {
        from: import.meta.url,
        file: 'docx-worker.ts',
        bundled: ({ workerData, resourceLimits }) => new Worker(new URL('./docx-worker.ts', import.meta.url), { workerData, resourceLimits }),
      },
      { workerData: job, heapMb: WORKER_HEAP_MB, isBundled: options.isBundled ?? false },
    );
    delivery.attach(worker, Math.max(1, deadlineMs - (Date.now() - startedAt)));
    // The first slice arrives when the file is built.
    const first = await delivery.next();
    return delivery.stream(first);
  } catch (error) {
    delivery.finish();
    throw error;
  }
}

/** One job's worker, asked for one message at a time, and what it holds (the worker, a slot) freed once. */
class Delivery {
  private worker: Worker | null = null;
  private timer: NodeJS.Timeout | undefined;
  private waiting: { resolve: (message: DocxMessage) => void; reject: (error: Error) => void } | null = null;
  private failure: Error | null = null;
  private isFinished = false;
  private onFailure: (error: Error) => void = () => undefined;

  constructor(
    private readonly release: () => void,
    private readonly deadlineMs: number,
  ) {}

  /** Listens to the worker; the build must be done (its first slice sent) within `remainingMs`. */
  attach(worker: Worker, remainingMs: number): void {
    this.worker = worker;
    this.timer = setTimeout(() => this.fail(tooSlow(this.deadlineMs)), remainingMs);
    worker.on('message', (message: DocxMessage) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.resolve(message);
    });
    worker.once('error', (error: Error & { code?: string }) => this.fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooBig() : workerFailed(error)));
    worker.once('exit', (code) => this.fail(workerFailed(new Error(`docx worker exited with code ${code}`))));
  }

  /** The worker's next message: the first is sent unasked, each later one when asked for. */
  next(ask = false): Promise<DocxMessage> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      if (ask) this.worker?.postMessage('next');
    });
  }

  /** The file from its first slice on, each further slice read when the response has taken the one before. */
  stream(first: DocxMessage): ReadableStream<Uint8Array> {
    // The built file's delivery gets as long as its build had: a response nobody reads frees the worker.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(tooSlowToTake(this.deadlineMs)), this.deadlineMs);
    let pending: DocxMessage | null = first;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.onFailure = (error) => controller.error(error);
      },
      pull: async (controller) => {
        const message = pending ?? (await this.next(true));
        pending = null;
        if ('done' in message) {
          this.finish();
          controller.close();
        } else {
          controller.enqueue(message.slice);
        }
      },
      cancel: () => this.finish(),
    });
  }

  private fail(error: Error): void {
    if (this.isFinished) return;
    this.failure = error;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
    this.onFailure(error);
    this.finish();
  }

  /** Stops the worker and frees the slot; safe to call more than once. */
  finish(): void {
    if (this.isFinished) return;
    this.isFinished = true;
    clearTimeout(this.timer);
    if (this.worker) void this.worker.terminate();
    this.release();
  }
}

function tooSlow(deadlineMs: number): AppError {
  return new AppError(
    'unavailable',
    `Writing the Word file took longer than ${Math.round(deadlineMs / 1000)} s and was stopped; try again, or export the document as Markdown`,
    { details: { deadline_ms: deadlineMs } },
  );
}

function tooSlowToTake(deadlineMs: number): AppError {
  return new AppError('unavailable', `The Word file was not taken within ${Math.round(deadlineMs / 1000)} s and was dropped; try again`, {
    details: { deadline_ms: deadlineMs },
  });
}

function tooBig(): AppError {
  return new AppError(
    'validation_failed',
    'Writing the Word file needed more memory than one export may use; export the document as Markdown',
    { details: { issues: [{ path: 'format', message: 'too large to write as a Word file' }] } },
  );
}

function workerFailed(cause: Error): AppError {
  return new AppError('unavailable', 'Writing the Word file stopped unexpectedly; try again', { cause });
}
