// `npm run bench`: inspect generated transcripts of 10,000 and 100,000
// records; goal under 1 s at 100,000 and linear growth. Then the hostile uploads that once
// stalled the server, read and inspected within the upload limits: 100,000 records sharing one
// uuid (and its 10k/100k ratio), 1M lines of `{`, nesting 4,100 deep, 5,000 leaves and a 20 MB
// parallel-call session. Prints one JSON object.
//
// Both transcripts are generated before any timing and the runs alternate between them, so
// garbage collection over the same live heap and any load on the machine weigh on both sizes
// alike, and the ratio measures the inspector rather than the order of the runs.
import {
  inspectConversationBranches,
  inspectConversationBranchesWithinLimits,
  parseTranscriptJsonlWithinLimits,
  type ChatRecord,
} from '../src/index';
import {
  deeplyNestedLine,
  fanOutSessionTranscript,
  manyLeavesTranscript,
  openBraceLines,
  sharedUuidTranscript,
} from '../src/testing/worst-case';
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
/** Runs of each hostile upload (--quick: one). */
const WORST_CASE_RUNS = process.env.BENCH_QUICK ? 1 : 3;
/** Each hostile upload is read and inspected (or refused) well inside the import's 10 s budget. */
const WORST_CASE_UNDER_MS = 5000;
const TWENTY_MB = 20 * 1024 * 1024;
/** Reading the 20 MB session costs at most this many times parsing its lines. */
const OVER_PARSE_FLOOR_MAX = 5;

function timeMs(records: readonly ChatRecord[]): number {
  const started = performance.now();
  inspectConversationBranches(records);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The floor for reading a file: `JSON.parse` of each of its lines, nothing else. Reading and
 * inspecting the 20 MB session is measured against it in the same run, the two alternating
 * run by run so that the heap and any load on the machine weigh on both alike; the figure says
 * what the reader adds on top of parsing, whatever the machine's speed. It runs first, before the
 * generated transcripts below fill the heap, so their garbage collection is not counted against it.
 */
function parseFloorMs(text: string): number {
  const started = performance.now();
  let parsed = 0;
  for (const line of text.split('\n')) if (line !== '') parsed += JSON.parse(line) === null ? 0 : 1;
  if (parsed === 0) throw new Error('nothing parsed');
  return performance.now() - started;
}

const twentyMb = fanOutSessionTranscript(TWENTY_MB);
const floorTimes: number[] = [];
const twentyMbTimes: number[] = [];
for (let i = 0; i < WORST_CASE_RUNS + 1; i++) {
  const floor = parseFloorMs(twentyMb);
  const started = performance.now();
  const outcome = readAndInspect(twentyMb);
  const read = performance.now() - started;
  if (outcome !== '1 leaves') throw new Error(`expected 1 leaves, got ${outcome}`);
  // The first pair warms both up.
  if (i === 0) continue;
  floorTimes.push(floor);
  twentyMbTimes.push(read);
}
const parseFloor20mbMs = median(floorTimes);
const twentyMbMs = median(twentyMbTimes);

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

/** Read within the limits, then inspect within them: what an upload costs before any import. */
function readAndInspect(text: string): string {
  const read = parseTranscriptJsonlWithinLimits(text);
  if (!read.ok) return read.error.kind;
  const inspected = inspectConversationBranchesWithinLimits(read.value.records);
  return inspected.ok ? `${inspected.value.branches.length} leaves` : inspected.error.kind;
}

function worstCaseMs(text: string, expected: string): number {
  const times: number[] = [];
  for (let i = 0; i < WORST_CASE_RUNS; i++) {
    const started = performance.now();
    const outcome = readAndInspect(text);
    times.push(performance.now() - started);
    if (outcome !== expected) throw new Error(`expected ${expected}, got ${outcome}`);
  }
  return median(times);
}

const worstCase = {
  shared_uuid_10k_ms: worstCaseMs(sharedUuidTranscript(10_000), '1 leaves'),
  shared_uuid_100k_ms: worstCaseMs(sharedUuidTranscript(100_000), '1 leaves'),
  open_braces_1m_ms: worstCaseMs(openBraceLines(1_000_000), '0 leaves'),
  nested_4100_ms: worstCaseMs(deeplyNestedLine(4_100), 'nesting-too-deep'),
  leaves_5000_ms: worstCaseMs(manyLeavesTranscript(5_000), 'too-many-leaves'),
  fan_out_20mb_ms: twentyMbMs,
};
const overParseFloor = twentyMbMs / parseFloor20mbMs;
const sharedUuidRatio = worstCase.shared_uuid_100k_ms / worstCase.shared_uuid_10k_ms;
const worstCasePass =
  Object.values(worstCase).every((ms) => ms < WORST_CASE_UNDER_MS) &&
  sharedUuidRatio <= LINEAR_RATIO_MAX &&
  overParseFloor <= OVER_PARSE_FLOOR_MAX;

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
    worst_case_20mb_ms: round(worstCase.fan_out_20mb_ms),
    parse_floor_20mb_ms: round(parseFloor20mbMs),
    worst_case_20mb_over_parse_floor: round(overParseFloor),
    worst_case: {
      ...Object.fromEntries(Object.entries(worstCase).map(([name, ms]) => [name, round(ms)])),
      shared_uuid_ratio_100k_over_10k: round(sharedUuidRatio),
    },
    goal: {
      under_ms: GOAL_UNDER_MS,
      linear_ratio_max: LINEAR_RATIO_MAX,
      worst_case_under_ms: WORST_CASE_UNDER_MS,
      worst_case_20mb_over_parse_floor_max: OVER_PARSE_FLOOR_MAX,
    },
    pass: records100k < GOAL_UNDER_MS && ratio <= LINEAR_RATIO_MAX && worstCasePass,
    meets_goal: records100k < GOAL_UNDER_MS && ratio <= LINEAR_RATIO_MAX && worstCasePass,
  }),
);
