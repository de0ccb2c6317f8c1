// The floor the live benches compare with: a bare NOTIFY from a process's pool to a LISTEN
// connection of its own, the least a message from one studio process to another can take.
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { timingOf, type Timing } from './stats';

/** `runs` timed round trips of `pg_notify` on `sql` heard on a LISTEN connection to `url`, after `warmup` untimed ones. */
export async function bareNotifyFloor(sql: postgres.Sql, url: string, options: { runs: number; warmup: number }): Promise<Timing> {
  const channel = `bench_bare_${process.pid}`;
  const listener = postgres(url, { max: 1 });
  let heard: (() => void) | undefined;
  await listener.listen(channel, () => heard?.());
  const samples: number[] = [];
  try {
    for (let i = 0; i < options.runs + options.warmup; i++) {
      const received = new Promise<void>((resolve) => (heard = resolve));
      const start = performance.now();
      await sql`select pg_notify(${channel}, ${String(i)})`;
      await received;
      if (i >= options.warmup) samples.push(performance.now() - start);
    }
  } finally {
    await listener.end({ timeout: 1 });
  }
  return timingOf(samples);
}
