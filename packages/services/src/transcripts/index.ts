export { inspectTranscript } from './inspect-transcript';
export { importProject, importTranscript, type ImportProjectInput, type ImportTranscriptInput } from './import-transcript';
export type { TranscriptUpload } from './read-transcript';
export { parseJsonInWorker, type TranscriptJobOptions } from './run-transcript-job';
