// Entry of the transcript worker thread: one job per worker (run-transcript-job.ts). A read-leaves
// answer goes out in pieces — its turns a slice per message, each sent when the request thread
// asks for the next, then the rest — because the request thread deserializes a message in one go,
// and a burst of queued messages in one go too: one 20 MB answer held its event loop ~0.5 s.
import { parentPort, workerData } from 'node:worker_threads';
import { runTranscriptJob, TURNS_PER_MESSAGE, type TranscriptJob } from './transcript-job';

const outcome = runTranscriptJob(workerData as TranscriptJob);
if (outcome.ok && 'turns' in outcome.value) {
  const { turns } = outcome.value;
  const rest = { ...outcome, value: { ...outcome.value, turns: [] } };
  let next = 0;
  const sendNext = () => {
    if (next >= turns.length) {
      parentPort?.postMessage(rest);
      return;
    }
    parentPort?.postMessage({ turns: turns.slice(next, next + TURNS_PER_MESSAGE) });
    next += TURNS_PER_MESSAGE;
  };
  parentPort?.on('message', sendNext);
  sendNext();
} else {
  parentPort?.postMessage(outcome);
}
