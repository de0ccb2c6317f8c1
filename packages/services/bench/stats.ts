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

/**
 * Times several functions in rounds, each round calling every one of them once, in an order that
 * turns a step each round (`warmup` rounds untimed first): whatever the machine does meanwhile
 * weighs on every side alike, where timing all of one and then all of the next lets a slow minute
 * land on one side only.
 */
export async function timeRounds<K extends string>(
  sides: Record<K, () => Promise<unknown>>,
  options: { runs: number; warmup?: number },
): Promise<Record<K, Timing>> {
  const names = Object.keys(sides) as K[];
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  const warmup = options.warmup ?? 3;
  for (let round = 0; round < warmup + options.runs; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const start = performance.now();
      await sides[name]();
      if (round >= warmup) samples.get(name)!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((name) => [name, timingOf(samples.get(name)!)])) as Record<K, Timing>;
}

/** A service and its floor, timed in alternating rounds ({@link timeRounds}). */
export function timePaired(
  service: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  options: { runs: number; warmup?: number },
): Promise<{ service: Timing; floor: Timing }> {
  return timeRounds({ service, floor }, options);
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
