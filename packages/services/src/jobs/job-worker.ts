// How this process starts the worker thread of a job it keeps off its event loop (transcript
// reading, stale-save merges, Word exports): one worker per job, a heap of its own, and the same
// two ways to load the worker's entry.
//
// - Bundled (the studio's Next.js build): the caller names its entry with
//   `new Worker(new URL('./x-worker.ts', import.meta.url), { workerData, resourceLimits })` at its
//   own call site, the form the bundler (Turbopack) recognises and compiles into a chunk of its own.
//   Only that form: with a variable for the options (`new Worker(new URL(…), options)`) the bundler
//   copies the TypeScript file as an asset instead, and the worker fails to load it.
// - From source (tsx, vitest): Node 20 does not pass a loader's hooks on to worker threads, so the
//   worker registers tsx itself before it loads the TypeScript entry. (The studio's bundle keeps the
//   source file's name in import.meta.url, hence the caller's `isBundled` first.)
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** How a job runs; the studio passes them from its env module (packages read no environment). */
export interface WorkerJobOptions {
  /** How long one job may take, waiting for a slot included. Each kind of job has its default. */
  deadlineMs?: number;
  /**
   * This module runs from a bundler's output (the studio's Next.js build), which compiled the worker
   * entry into a chunk of its own. Default false: run from TypeScript source (tsx, vitest).
   */
  isBundled?: boolean;
}

export interface WorkerEntry {
  /** `import.meta.url` of the module that starts the worker. */
  from: string;
  /** The worker's entry file, beside that module. */
  file: string;
  /** The bundler's form, written at the caller: `({ workerData, resourceLimits }) => new Worker(new URL('./x-worker.ts', import.meta.url), { workerData, resourceLimits })`. */
  bundled: (options: { workerData: unknown; resourceLimits: ResourceLimits }) => Worker;
}

export function startJobWorker(entry: WorkerEntry, job: { workerData: unknown; heapMb: number; isBundled: boolean }): Worker {
  const options = { workerData: job.workerData, resourceLimits: { maxOldGenerationSizeMb: job.heapMb } };
  if (!job.isBundled && entry.from.endsWith('.ts')) {
    const source = new URL(entry.file, entry.from).href;
    const bootstrap = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
    return new Worker(bootstrap, { ...options, eval: true });
  }
  return entry.bundled(options);
}
