// `npm run bench` (issue 7 acceptance): inspect generated transcripts of 10,000 and 100,000
// records; goal under 1 s at 100,000 and linear growth. Prints one JSON object.
//
// Both transcripts are generated before any timing and the runs alternate between them, so
// garbage collection over the same live heap and any load on the machine weigh on both sizes
// alike, and the ratio measures the inspector rather than the order of the runs.
import { inspectConversationBranches, type ChatRecord } from '../src/index';
import { generateTranscript } from './generate-transcript';

const SEED = 7;
const WARMUP_RUNS = 3;
const TIMED_RUNS = 9;
const GOAL_UNDER_MS = 1000;
/**
 * Ten times the records: linear work is 10×, a quadratic step would show about 100×. The bound
 * leaves 2× for the memory hierarchy, which no linear algorithm escapes: a 10k transcript and its
 * index stay in cache between passes, a 100k one (about ten times the bytes) does not, so each
 * record costs more to reach.
 */
const LINEAR_RATIO_MAX = 20;

function timeMs(records: readonly ChatRecord[]): number {
  const started = performance.now();
  inspectConversationBranches(records);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const small = generateTranscript(10_000, SEED);
const large = generateTranscript(100_000, SEED);
for (let i = 0; i < WARMUP_RUNS; i++) {
  timeMs(small);
  timeMs(large);
}
const smallTimes: number[] = [];
const largeTimes: number[] = [];
for (let i = 0; i < TIMED_RUNS; i++) {
  smallTimes.push(timeMs(small));
  largeTimes.push(timeMs(large));
}

const round = (value: number) => Math.round(value * 100) / 100;
const records10k = median(smallTimes);
const records100k = median(largeTimes);
const ratio = records100k / records10k;

console.log(
  JSON.stringify({
    name: 'transcripts.inspect',
    records_10k_ms: round(records10k),
    records_100k_ms: round(records100k),
    ratio_100k_over_10k: round(ratio),
    goal: { under_ms: GOAL_UNDER_MS, linear_ratio_max: LINEAR_RATIO_MAX },
    pass: records100k < GOAL_UNDER_MS && ratio <= LINEAR_RATIO_MAX,
  }),
);
