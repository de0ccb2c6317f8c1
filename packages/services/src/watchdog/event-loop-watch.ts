// How late this process's event loop runs: a request thread that is busy for a second delays every
// other request by a second, so the delay is what "the studio stalls" looks like from inside. The
// delay is the gap between the ticks of a 10 ms timer, kept in a perf_hooks histogram, read every
// interval into a window of the last minute, reported by /api/health (p99 and max over that minute),
// and logged as a warning when an interval saw a delay above the threshold. A log line can only be
// written once the loop runs again: it names the stall after the fact, with its length.
//
// Not Node's `monitorEventLoopDelay`: resetting it for the next interval also forgets when it last
// ticked, so a stall that began before its first tick after a reset was never recorded (one stall
// in five to twenty, measured). The gap here is measured from the last tick, whatever the windows.
import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';
import type { Logger } from '../deps';

export interface EventLoopDelay {
  /** The 99th percentile of the delay over the last minute (the worst interval's), in ms. */
  p99_ms: number;
  /** The longest delay over the last minute, in ms. */
  max_ms: number;
}

export interface EventLoopWatchOptions {
  logger: Logger;
  /** A delay above this is logged as a warning (default 1 s). */
  warnAboveMs?: number;
  /** How often the histogram is read into the window (default 5 s; the window keeps a minute). */
  intervalMs?: number;
}

const NS_PER_MS = 1e6;
const WINDOW_MS = 60_000;
const TICK_MS = 10;

class EventLoopWatch {
  /** The gaps between ticks since the last sample, in ns (the histogram's integer unit). */
  readonly #histogram: RecordableHistogram = createHistogram();
  readonly #samples: { at: number; p99: number; max: number }[] = [];
  readonly #ticker: NodeJS.Timeout;
  readonly #timer: NodeJS.Timeout;
  #lastTick = performance.now();

  constructor(private readonly options: EventLoopWatchOptions) {
    this.#ticker = setInterval(() => {
      const now = performance.now();
      this.#histogram.record(Math.max(1, Math.round((now - this.#lastTick) * NS_PER_MS)));
      this.#lastTick = now;
    }, TICK_MS);
    this.#ticker.unref();
    this.#timer = setInterval(() => this.#sample(), options.intervalMs ?? 5_000);
    this.#timer.unref();
  }

  read(): EventLoopDelay {
    const now = Date.now();
    const current = this.#current();
    let p99 = current.p99;
    let max = current.max;
    for (const s of this.#samples) {
      if (now - s.at > WINDOW_MS) continue;
      p99 = Math.max(p99, s.p99);
      max = Math.max(max, s.max);
    }
    return { p99_ms: round(p99), max_ms: round(max) };
  }

  stop(): void {
    clearInterval(this.#timer);
    clearInterval(this.#ticker);
  }

  #current(): { p99: number; max: number } {
    // An empty histogram reads its max as 0 and its percentiles as 0: nothing sampled yet.
    if (this.#histogram.count === 0) return { p99: 0, max: 0 };
    return { p99: this.#histogram.percentile(99) / NS_PER_MS, max: this.#histogram.max / NS_PER_MS };
  }

  #sample(): void {
    const now = Date.now();
    const sample = { at: now, ...this.#current() };
    this.#histogram.reset();
    this.#samples.push(sample);
    while (this.#samples.length > 0 && now - this.#samples[0]!.at > WINDOW_MS) this.#samples.shift();
    const warnAbove = this.options.warnAboveMs ?? 1_000;
    if (sample.max > warnAbove) {
      this.options.logger.warn(
        { event_loop_delay_ms: round(sample.max), p99_ms: round(sample.p99) },
        'the event loop was blocked: every request waited this long',
      );
    }
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

let watch: EventLoopWatch | null = null;

/** Starts this process's watch (once; later calls keep the first). */
export function startEventLoopWatch(options: EventLoopWatchOptions): void {
  watch ??= new EventLoopWatch(options);
}

/** The delay over the last minute; zeros when no watch runs in this process. */
export function eventLoopDelay(): EventLoopDelay {
  return watch?.read() ?? { p99_ms: 0, max_ms: 0 };
}

/** Stops the watch (tests). */
export function stopEventLoopWatch(): void {
  watch?.stop();
  watch = null;
}
