// Running async work over a list with at most `limit` calls in flight.

/**
 * Calls `run` for every item, at most `limit` at a time. After a failure no further item starts;
 * the calls in flight finish, then the first failure is thrown.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await run(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
}

/** `fn` of every item, in the items' order, at most `limit` calls at a time (failures as `forEachLimited`). */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  await forEachLimited(items, limit, async (item, index) => {
    out[index] = await fn(item, index);
  });
  return out;
}
