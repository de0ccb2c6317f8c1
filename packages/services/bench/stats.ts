import { performance } from 'node:perf_hooks';

export interface Timing {
  p50: number;
  p95: number;
  runs: number;
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times; milliseconds, rounded to 0.01. `before` runs
 * untimed ahead of every call (to give each call fresh work).
 */
export async function time(
  fn: () => Promise<unknown>,
  options: { runs: number; warmup?: number; before?: () => Promise<unknown> },
): Promise<Timing> {
  for (let i = 0; i < (options.warmup ?? 3); i++) {
    await options.before?.();
    await fn();
  }
  const samples: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    await options.before?.();
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return timingOf(samples);
}

/** p50 and p95 of samples taken elsewhere (milliseconds, rounded to 0.01). */
export function timingOf(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: round(at(0.5)), p95: round(at(0.95)), runs: sorted.length };
}

/** The p50 of samples taken elsewhere. */
export const median = (samples: readonly number[]) => timingOf(samples).p50;

export const round = (n: number) => Math.round(n * 100) / 100;
export const ratio = (a: number, b: number) => round(a / b);
