// A stale save's merge runs off the request thread: one worker thread per merge, at most
// MAX_CONCURRENT_MERGES at once, each within a deadline (waiting for a slot included). The merge's
// own budget (domain's MergeBudget) ends it first in all but the worst case; the deadline
// terminates the worker if it does not. The event loop that serves every other request never runs
// a diff over a client's text.
//
// The worker is named with `new Worker(new URL('./merge-worker.ts', import.meta.url))`, the form
// the studio's bundler recognises and compiles into a chunk of its own; run from source (tsx,
// vitest) it loads the TypeScript file through tsx, as the transcript worker does.
import { Worker } from 'node:worker_threads';
import { AppError, DEFAULT_MERGE_BUDGET } from '@trellis/domain';
import { Slots } from '../../jobs/slots';
import type { MergeJob, MergeOutcome } from './merge-job';

/** How long one merge may take, waiting for a slot included, unless the caller says otherwise. */
export const DEFAULT_MERGE_DEADLINE_MS = 8_000;
/** Merges running at once in this process; more wait their turn (until their deadline). */
export const MAX_CONCURRENT_MERGES = 2;
const WORKER_HEAP_MB = 512;

export interface MergeJobOptions {
  /** How long one merge may take, waiting included. Default {@link DEFAULT_MERGE_DEADLINE_MS}. */
  deadlineMs?: number;
  /** This module runs from a bundler's output (the studio's build). Default false: from source. */
  isBundled?: boolean;
}

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
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (!isBundled && import.meta.url.endsWith('.ts')) {
    // From source: Node 20 does not pass a loader's hooks on to worker threads, so the worker
    // registers tsx itself before it loads the TypeScript entry.
    const entry = import.meta.url.replace(/run-merge-job\.ts$/, 'merge-worker.ts');
    const bootstrap = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
    return new Worker(bootstrap, { eval: true, workerData: job, resourceLimits });
  }
  return new Worker(new URL('./merge-worker.ts', import.meta.url), { workerData: job, resourceLimits });
}
