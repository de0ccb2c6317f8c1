// A stale save's merge runs off the request thread: one worker thread per merge, at most
// MAX_CONCURRENT_MERGES at once, each within a deadline (waiting for a slot included). The merge's
// own budget (domain's MergeBudget) ends it first in all but the worst case; the deadline
// terminates the worker if it does not. The event loop that serves every other request never runs
// a diff over a client's text.
//
// The worker starts as every job's does (jobs/job-worker.ts): bundled, or from source through tsx.
import { Worker } from 'node:worker_threads';
import { AppError, DEFAULT_MERGE_BUDGET } from '@trellis/domain';
import { startJobWorker, type WorkerJobOptions } from '../../jobs/job-worker';
import { Slots } from '../../jobs/slots';
import type { MergeJob, MergeOutcome } from './merge-job';

/** How long one merge may take, waiting for a slot included, unless the caller says otherwise. */
export const DEFAULT_MERGE_DEADLINE_MS = 8_000;
/** Merges running at once in this process; more wait their turn (until their deadline). */
export const MAX_CONCURRENT_MERGES = 2;
const WORKER_HEAP_MB = 512;

/** A merge's deadline (default {@link DEFAULT_MERGE_DEADLINE_MS}, waiting included) and how its worker starts. */
export type MergeJobOptions = WorkerJobOptions;

const slots = new Slots(
  MAX_CONCURRENT_MERGES,
  () => new AppError('unavailable', 'The studio is busy merging other saves; try again in a moment'),
);

export async function mergeInWorker(job: MergeJob, options: MergeJobOptions = {}): Promise<MergeOutcome> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_MERGE_DEADLINE_MS;
  const startedAt = Date.now();
  const release = await slots.acquire(deadlineMs);
  try {
    const remainingMs = Math.max(1, deadlineMs - (Date.now() - startedAt));
    // The merge stops itself a little before the deadline, so its answer is a refusal, not a kill.
    const budget = { ...(job.budget ?? DEFAULT_MERGE_BUDGET) };
    budget.timeoutMs = Math.max(1, Math.min(budget.timeoutMs, remainingMs - 250));
    return await runWorker({ ...job, budget }, remainingMs, options.isBundled ?? false);
  } finally {
    release();
  }
}

function runWorker(job: MergeJob, remainingMs: number, isBundled: boolean): Promise<MergeOutcome> {
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
    // Past the deadline the merge is out of budget: the same answer as the merge's own refusal.
    const timer = setTimeout(() => settle(() => resolve({ ok: false, reason: 'too_complex' })), remainingMs);
    worker.once('message', (outcome: MergeOutcome) => settle(() => resolve(outcome)));
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? resolve({ ok: false, reason: 'too_complex' })
          : reject(new AppError('unavailable', 'The merge stopped unexpectedly; try again', { cause: error })),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new AppError('unavailable', 'The merge stopped unexpectedly; try again', { cause: new Error(`exit ${code}`) }))),
    );
  });
}

function startWorker(job: MergeJob, isBundled: boolean): Worker {
  return startJobWorker(
    {
      from: import.meta.url,
      file: 'merge-worker.ts',
      bundled: ({ workerData, resourceLimits }) => new Worker(new URL('./merge-worker.ts', import.meta.url), { workerData, resourceLimits }),
    },
    { workerData: job, heapMb: WORKER_HEAP_MB, isBundled },
  );
}
