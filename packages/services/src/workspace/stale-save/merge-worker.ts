// Entry of the merge worker thread: one stale-save merge per worker (run-merge-job.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { runMergeJob, type MergeJob } from './merge-job';

parentPort?.postMessage(runMergeJob(workerData as MergeJob));
