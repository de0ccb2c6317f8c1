// `npm run bench` — curation costs, side by side in one run:
//   search p95 over a user with 10k messages and one with 100k, the same rare word matching a fixed
//   number of rows in each (the GIN index makes the cost follow the matches, not the history)
//   Markdown export of a 50-step and a 500-step path (linear: 10× the steps, at most 12× the time)
import { setupCheckpointer } from '@trellis/agent';
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { searchHistory } from '../src/search/search-history';
import { exportPathMarkdown } from '../src/export/export-markdown';
import { seedThreadWithHistory, seedUser } from './seed-history';
import { ratio, time, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const TURNS_PER_THREAD = 500; // two messages per turn
const MATCHES = 30;

const database = await createScratchDatabase('trellis_bench_curate');
try {
  await setupCheckpointer({ connectionString: database.url, schema: CHECKPOINTER_SCHEMA });
  const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const { sql } = deps;

  const search: Record<string, Timing & { messages: number; hits: number }> = {};
  for (const messages of [10_000, 100_000]) {
    const userId = await seedUser(sql);
    const threads = messages / (2 * TURNS_PER_THREAD);
    for (let i = 0; i < threads; i++) {
      await seedThreadWithHistory(sql, { userId, turns: TURNS_PER_THREAD, documentBytes: 2_000, artifacts: 0 });
    }
    await sql`update messages set content = content || ' about swarming bees'
      where seq in (select m.seq from messages m join conversations c on c.thread_id = m.thread_id
        where c.user_id = ${userId} order by m.seq % 997, m.seq limit ${MATCHES})`;
    await sql`analyze`;
    const actor = { userId };
    const first = await searchHistory(deps, actor, { q: 'swarming', page: 1 });
    search[`messages_${messages}`] = {
      ...(await time(() => searchHistory(deps, actor, { q: 'swarming', page: 1 }), { runs: RUNS * 2 })),
      messages,
      hits: first.hits.length,
    };
  }

  const exports: Record<string, Timing & { bytes: number }> = {};
  const userId = await seedUser(sql);
  for (const steps of [50, 500]) {
    const threadId = await seedThreadWithHistory(sql, { userId, turns: steps, documentBytes: 2_000, artifacts: 5 });
    const file = await exportPathMarkdown(deps, { userId }, { threadId });
    exports[`steps_${steps}`] = {
      ...(await time(() => exportPathMarkdown(deps, { userId }, { threadId }), { runs: RUNS })),
      bytes: (file.body as string).length,
    };
  }
  await deps.close();

  const s10 = search.messages_10000!;
  const s100 = search.messages_100000!;
  const e50 = exports.steps_50!;
  const e500 = exports.steps_500!;
  const searchRatio = ratio(s100.p95, s10.p95);
  const exportRatio = ratio(e500.p50, e50.p50);
  console.log(
    JSON.stringify({
      name: 'services.curate',
      unit: 'ms',
      // The detail behind each figure.
      search: { messages_10k: s10, messages_100k: s100 },
      export: { steps_50: e50, steps_500: e500 },
      // The figures, by the names the README's table gives them.
      'search.p95_ratio_100k_over_10k_messages': searchRatio,
      'export.markdown_ratio_500_over_50_steps': exportRatio,
      goal: 'search.p95_ratio_100k_over_10k_messages ≤ 1.5; export.markdown_ratio_500_over_50_steps ≤ 12 (linear)',
      meets_goal: {
        'search.p95_ratio_100k_over_10k_messages': searchRatio <= 1.5,
        'export.markdown_ratio_500_over_50_steps': exportRatio <= 12,
      },
    }),
  );
} finally {
  await database.dispose();
}
