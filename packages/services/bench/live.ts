// `npm run bench` — the family channel, side by side in one run:
//   cross-process: an event appended (committed, with its NOTIFY) through one set of service deps
//   (one studio process) until a subscriber of another process's hub has it, over a bare NOTIFY
//   round trip between the same two connections' kinds (pg_notify → a LISTEN connection).
//   500 subscribers: the health check's p95 while 500 event streams are open on one process and
//   events flow to all of them.
import { performance } from 'node:perf_hooks';
import { setupCheckpointer } from '@trellis/agent';
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { createConversation } from '../src/conversations/create-conversation';
import { checkHealth } from '../src/health';
import { appendFamilyEvent } from '../src/live/family-events';
import { toFamilyEventStream } from '../src/live/family-event-stream';
import { seedUser } from './seed-history';
import { bareNotifyFloor } from './bare-notify';
import { ratio, timingOf } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25) * 8;
const SUBSCRIBERS = 500;

const database = await createScratchDatabase('trellis_bench_live');
try {
  await setupCheckpointer({ connectionString: database.url, schema: CHECKPOINTER_SCHEMA });
  const one = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const other = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const userId = await seedUser(one.sql);
  const actor = { userId };
  const { thread_id: family } = await createConversation(one, actor, {});

  // Cross-process: commit through `one`, receive on `other`.
  const subscription = await other.family.subscribe(family, null);
  const crossSamples: number[] = [];
  for (let i = 0; i < RUNS + 10; i++) {
    const start = performance.now();
    const received = subscription.next();
    await appendFamilyEvent(one.db, { threadId: family, kind: 'workspace_changed', data: { i } });
    await received;
    if (i >= 10) crossSamples.push(performance.now() - start);
  }
  subscription.end('closed');

  // The floor: a bare NOTIFY from the same pool to a LISTEN connection of its own.
  const bare = await bareNotifyFloor(one.sql, database.url, { runs: RUNS, warmup: 10 });

  // 500 open streams on one process (`other`), read as the SSE responses would be, events flowing.
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  const reading: Promise<void>[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const reader = toFamilyEventStream(await other.family.subscribe(family, null)).getReader();
    readers.push(reader);
    reading.push(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    );
  }
  let flowing = true;
  const producer = (async () => {
    while (flowing) {
      await appendFamilyEvent(one.db, { threadId: family, kind: 'workspace_changed', data: {} });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const healthSamples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await checkHealth(other);
    healthSamples.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  flowing = false;
  await producer;
  const subscribers = other.family.subscriberCount;
  await Promise.all(readers.map((r) => r.cancel().catch(() => undefined)));
  await Promise.allSettled(reading);
  await Promise.all([one.close(), other.close()]);

  const cross = timingOf(crossSamples);
  const health = timingOf(healthSamples);
  const crossRatio = ratio(cross.p95, bare.p95);
  console.log(
    JSON.stringify({
      name: 'services.live',
      unit: 'ms',
      cross_process: cross,
      bare_notify: bare,
      health_with_subscribers: { ...health, subscribers },
      'live.p95_ratio_cross_process_over_notify': crossRatio,
      'live.health_p95_ms_with_500_subscribers': health.p95,
      goal: 'live.p95_ratio_cross_process_over_notify ≤ 3; live.health_p95_ms_with_500_subscribers ≤ 200',
      meets_goal: {
        'live.p95_ratio_cross_process_over_notify': crossRatio <= 3,
        'live.health_p95_ms_with_500_subscribers': health.p95 <= 200,
      },
    }),
  );
} finally {
  await database.dispose();
}
