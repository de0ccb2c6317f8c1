// Inspection and import parsing run off the request thread (docs/architecture.md, "Transcript
// import"): one worker thread per job, with a deadline and a heap of its own. A job past its
// deadline, or one that exhausts its heap, is terminated and answered with a clear error; the
// event loop that serves every other request never runs the reader.
//
// The worker starts as every job's does (jobs/job-worker.ts): bundled, or from source through tsx.
import { Worker } from 'node:worker_threads';
import { AppError, type TranscriptInspection } from '@trellis/domain';
import { startJobWorker, type WorkerJobOptions } from '../jobs/job-worker';
import { Slots } from '../jobs/slots';
import type { JobOutcome, ParsedJson, ReadLeaves, TranscriptJob, TurnsMessage } from './transcript-job';
import type { ImportedTurn } from './transcript-turns';

/** How long one job may run before it is stopped, unless the caller says otherwise. */
export const DEFAULT_TRANSCRIPT_JOB_DEADLINE_MS = 30_000;
/** Jobs running at once in this process; more wait their turn (until their deadline). */
export const MAX_CONCURRENT_TRANSCRIPT_JOBS = 2;
const WORKER_HEAP_MB = 1_536;

/**
 * How transcript jobs run (the studio passes them from its env module): the deadline, waiting for a
 * slot included (default {@link DEFAULT_TRANSCRIPT_JOB_DEADLINE_MS}), and how the worker starts.
 */
export type TranscriptJobOptions = WorkerJobOptions;

export function inspectInWorker(job: Extract<TranscriptJob, { kind: 'inspect' }>, options?: TranscriptJobOptions): Promise<TranscriptInspection> {
  return runInWorker(job, options) as Promise<TranscriptInspection>;
}

export function readLeavesInWorker(job: Extract<TranscriptJob, { kind: 'read-leaves' }>, options?: TranscriptJobOptions): Promise<ReadLeaves> {
  return runInWorker(job, options) as Promise<ReadLeaves>;
}

/**
 * A JSON request body (a transcript upload's: 20 MB of escaped text), parsed off the request thread;
 * malformed JSON is a 400. The caller checks the result against the route's schema.
 */
export async function parseJsonInWorker(bytes: Uint8Array, options?: TranscriptJobOptions): Promise<unknown> {
  const { parsed } = (await runInWorker({ kind: 'parse-json', bytes }, options)) as ParsedJson;
  return parsed;
}

type JobValue = TranscriptInspection | ReadLeaves | ParsedJson;

async function runInWorker(job: TranscriptJob, options: TranscriptJobOptions = {}): Promise<JobValue> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_TRANSCRIPT_JOB_DEADLINE_MS;
  const startedAt = Date.now();
  const release = await slots.acquire(deadlineMs);
  try {
    return await runWorker(job, Math.max(1, deadlineMs - (Date.now() - startedAt)), deadlineMs, options.isBundled ?? false);
  } finally {
    release();
  }
}

function runWorker(
  job: TranscriptJob,
  remainingMs: number,
  deadlineMs: number,
  isBundled: boolean,
): Promise<JobValue> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(job, isBundled);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(tooSlow(deadlineMs))), remainingMs);
    // A read-leaves answer arrives as slices of its turns, one per request, then the outcome (transcript-worker.ts).
    const turns: ImportedTurn[] = [];
    worker.on('message', (message: JobOutcome | TurnsMessage) => {
      if (!('ok' in message)) {
        for (const turn of message.turns) turns.push(turn);
        // The next slice is asked for once other work had its turn of the event loop.
        setImmediate(() => {
          if (!settled) worker.postMessage('next');
        });
        return;
      }
      settle(() => {
        if (!message.ok) reject(new AppError(message.error.code, message.error.message, { details: message.error.details }));
        else if ('turns' in message.value) resolve({ ...message.value, turns });
        else resolve(message.value);
      });
    });
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooBig() : workerFailed(error))),
    );
    worker.once('exit', (code) => settle(() => reject(workerFailed(new Error(`transcript worker exited with code ${code}`)))));
  });
}

function startWorker(job: TranscriptJob, isBundled: boolean): Worker {
  return startJobWorker(
    {
      from: import.meta.url,
      file: 'transcript-worker.ts',
      bundled: ({ workerData, resourceLimits }) => new Worker(new URL('./transcript-worker.ts', import.meta.url), { workerData, resourceLimits }),
    },
    { workerData: job, heapMb: WORKER_HEAP_MB, isBundled },
  );
}

function tooSlow(deadlineMs: number): AppError {
  return new AppError(
    'unavailable',
    `Reading the transcript took longer than ${Math.round(deadlineMs / 1000)} s and was stopped; try again, or split the file by session`,
    { details: { deadline_ms: deadlineMs } },
  );
}

function tooBig(): AppError {
  return new AppError(
    'validation_failed',
    'Reading the transcript needed more memory than one upload may use; split the file by session',
    { details: { issues: [{ path: 'content', message: 'too large to read' }] } },
  );
}

function workerFailed(cause: Error): AppError {
  return new AppError('unavailable', 'The transcript reader stopped unexpectedly; try again', { cause });
}

function busy(): AppError {
  return new AppError('unavailable', 'The studio is busy reading other uploads; try again in a moment');
}

const slots = new Slots(MAX_CONCURRENT_TRANSCRIPT_JOBS, busy);
