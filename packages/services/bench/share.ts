// `npm run bench` — opening a share link costs what one screen shows, not the path's length: a link
// pinned on the latest step of a 1,000-step path against one on a 10-step path (each with a 100 KB
// document and 50 artifacts, messages and snapshots for every step). Each sample is one
// `getSharedView` (the page's first request), the two sides alternating; p95 over p95.
import { createShare } from '../src/shares/manage-shares';
import { getSharedView } from '../src/shares/read-shared';
import { openBenchWorld } from './scratch';
import { seedThreadWithHistory } from './seed-history';
import { ratio, timingOf } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);

const world = await openBenchWorld('trellis_bench_share');
try {
  const { deps, sql, userId, actor } = world;
  async function linkTo(turns: number): Promise<string> {
    const threadId = await seedThreadWithHistory(sql, { userId, turns, documentBytes: 100_000, artifacts: 50 });
    const share = await createShare(deps, actor, { threadId, scope: 'path', follows_latest: false });
    return share.url!.replace(/^\/s\//, '');
  }
  const sides = { steps_10: await linkTo(10), steps_1000: await linkTo(1000) };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const samples: Record<keyof typeof sides, number[]> = { steps_10: [], steps_1000: [] };
  const warmup = 5;
  for (let round = 0; round < warmup + RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const start = performance.now();
      await getSharedView(deps, { token: sides[name] });
      if (round >= warmup) samples[name].push(performance.now() - start);
    }
  }
  const timing = { steps_10: timingOf(samples.steps_10), steps_1000: timingOf(samples.steps_1000) };
  const p95Ratio = ratio(timing.steps_1000.p95, timing.steps_10.p95);
  console.log(
    JSON.stringify({
      name: 'services.share',
      unit: 'ms',
      view: timing,
      'share.view_p95_ratio_1000_over_10_steps': p95Ratio,
      goal: 'p95 of opening a pinned path link on a 1,000-step path over p95 on a 10-step path ≤ 1.5',
      meets_goal: { 'share.view_p95_ratio_1000_over_10_steps': p95Ratio <= 1.5 },
    }),
  );
} finally {
  await world.dispose();
}
