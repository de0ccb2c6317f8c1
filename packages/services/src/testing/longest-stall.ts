// How long the event loop went without running a timer while some work ran: what that work cost
// every other request this process serves. Tests compare it with the whole work's time in the same
// run (a machine's speed and load scale both), never with a fixed number of milliseconds.

/**
 * The longest the event loop went without running a timer while `work` ran: a setTimeout(0) chain
 * records the gap between consecutive ticks.
 */
export async function longestStall<T>(work: () => Promise<T>): Promise<{ maxGapMs: number; ticks: number; result: T }> {
  let isDone = false;
  let last = performance.now();
  let maxGapMs = 0;
  let ticks = 0;
  const tick = () => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
    if (!isDone) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    const result = await work();
    return { maxGapMs, ticks, result };
  } finally {
    isDone = true;
  }
}
