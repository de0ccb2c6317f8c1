// `npm run bench` — the research dataset, side by side in one run:
//   the dataset export of a 500-step and a 5,000-step family, timed in alternating rounds (linear:
//   10× the steps, at most 12× the time), and the process's memory growth while the 5,000-step
//   family streams out (the zip is read as a client would and thrown away: a batch at a time, so
//   the growth must not follow the family; goal ≤ 64 MB).
import { setupCheckpointer } from '@trellis/agent';
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { exportDataset } from '../src/export/export-dataset';
import { seedThreadWithHistory, seedUser } from './seed-history';
import { ratio, timeRounds } from './stats';

const RUNS = process.env.BENCH_QUICK ? 3 : 7;

const database = await createScratchDatabase('trellis_bench_dataset');
try {
  await setupCheckpointer({ connectionString: database.url, schema: CHECKPOINTER_SCHEMA });
  const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const { sql } = deps;
  const families: Record<string, { userId: string; threadId: string }> = {};
  for (const steps of [500, 5_000]) {
    const userId = await seedUser(sql);
    families[`steps_${steps}`] = { userId, threadId: await seedThreadWithHistory(sql, { userId, turns: steps, documentBytes: 2_000, artifacts: 5 }) };
  }
  await sql`analyze`;

  /** Streams the whole package out as a client would, counting its bytes. */
  const drain = async (family: { userId: string; threadId: string }): Promise<number> => {
    const dataset = await exportDataset(deps, { userId: family.userId }, { threadId: family.threadId });
    let bytes = 0;
    for await (const chunk of dataset.stream) bytes += chunk.byteLength;
    return bytes;
  };
  const bytes500 = await drain(families.steps_500!);
  const bytes5000 = await drain(families.steps_5000!);
  const rounds = await timeRounds(
    { steps_500: () => drain(families.steps_500!), steps_5000: () => drain(families.steps_5000!) },
    { runs: RUNS, warmup: 1 },
  );

  // Memory: the resident set sampled every 10 ms while the 5,000-step family streams, over the
  // resident set just before (after the warm runs above, so code and pools are already loaded).
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  await drain(families.steps_5000!);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await deps.close();

  const timeRatio = ratio(rounds.steps_5000.p50, rounds.steps_500.p50);
  const rssMb = Math.round(((peak - baseline) / 1024 / 1024) * 10) / 10;
  console.log(
    JSON.stringify({
      name: 'services.dataset',
      unit: 'ms',
      export: { steps_500: { ...rounds.steps_500, bytes: bytes500 }, steps_5000: { ...rounds.steps_5000, bytes: bytes5000 } },
      'export.dataset_ratio_5000_over_500_steps': timeRatio,
      'export.dataset_rss_mb_5000_steps': rssMb,
      goal: 'export.dataset_ratio_5000_over_500_steps ≤ 12 (linear); export.dataset_rss_mb_5000_steps ≤ 64',
      meets_goal: {
        'export.dataset_ratio_5000_over_500_steps': timeRatio <= 12,
        'export.dataset_rss_mb_5000_steps': rssMb <= 64,
      },
    }),
  );
} finally {
  await database.dispose();
}
