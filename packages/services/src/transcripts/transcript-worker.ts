// Entry of the transcript worker thread: one job per worker, answered once (run-transcript-job.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { runTranscriptJob, type TranscriptJob } from './transcript-job';

parentPort?.postMessage(runTranscriptJob(workerData as TranscriptJob));
