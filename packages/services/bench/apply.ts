// `npm run bench` — an apply's cost follows the items it brings, never the history: the same apply
// (the 100 KB document's one section, two preferences, a todo tree, an artifact, the objective) from
// a thread's tip onto a branch of it, on a 10-turn and a 1000-turn history (50 artifacts each).
// Before every run the source's items change (untimed), so every apply replaces them for real.
import { newThreadId, type ApplyItem } from '@trellis/domain';
import { randomUUID } from 'node:crypto';
import { applyItems } from '../src/apply/apply-items';
import { seedThreadWithHistory } from './seed-history';
import { openBenchWorld } from './scratch';
import { ratio, time, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);

const world = await openBenchWorld('trellis_bench_apply');
try {
  const { deps, sql, userId, actor } = world;

  const depth: Record<number, Timing & { applied: number }> = {};
  for (const turns of [10, 1000]) {
    const sourceId = await seedThreadWithHistory(sql, { userId, turns, documentBytes: 100_000, artifacts: 50 });
    // The target: a branch at the source's tip, carrying copies (same keys) of its workspace.
    const targetId = newThreadId(randomUUID);
    await sql.begin(async (tx) => {
      await tx`insert into conversations (thread_id, user_id, root_thread_id, title, objective, turn_index)
        values (${targetId}, ${userId}, ${sourceId}, 'Bench target', 'Measure things', ${turns})`;
      await tx`insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
        values (${targetId}, ${sourceId}, ${turns}, ${userId}, 'active')`;
      await tx`insert into documents (thread_id, title, content) select ${targetId}, title, content from documents where thread_id = ${sourceId}`;
      await tx`insert into preferences (thread_id, position, text, locked, key)
        select ${targetId}, position, text, false, key from preferences where thread_id = ${sourceId} and position < 3`;
      await tx`insert into todos (thread_id, position, text, done, depth, key)
        select ${targetId}, position, text, done, depth, key from todos where thread_id = ${sourceId}`;
      await tx`insert into artifacts (thread_id, turn_index, kind, title, content, key, number)
        select ${targetId}, turn_index, kind, title, content, key, number from artifacts where thread_id = ${sourceId}`;
    });
    const keys = async (table: 'preferences' | 'todos', position: number) =>
      (await sql<{ key: string }[]>`select key::text as key from ${sql(table)} where thread_id = ${sourceId} and position = ${position}`)[0]!.key;
    const [artifact] = await sql<{ key: string }[]>`select key::text as key from artifacts where thread_id = ${sourceId} order by id desc limit 1`;
    const items: ApplyItem[] = [
      { kind: 'section', heading: 'Bench document' },
      { kind: 'preference', key: await keys('preferences', 1) },
      { kind: 'preference', key: await keys('preferences', 3) },
      { kind: 'todo', key: await keys('todos', 0) },
      { kind: 'artifact', key: artifact!.key },
      { kind: 'objective' },
    ];
    let run = 0;
    let applied = 0;
    const timing = await time(
      async () => {
        const result = await applyItems(deps, actor, { threadId: targetId, source: { thread_id: sourceId, turn: turns }, items });
        applied = result.applied.filter((a) => a.effect !== 'unchanged').length;
      },
      {
        runs: RUNS,
        before: async () => {
          // The previous apply's step summary (stored after its answer) is not this run's cost.
          await deps.gate.followUpsOf([targetId]);
          run += 1;
          await sql`update documents set content = content || ${` run ${run}.`} where thread_id = ${sourceId}`;
          await sql`update preferences set text = ${`Preference edited ${run}`} where thread_id = ${sourceId} and position in (1, 3)`;
          await sql`update todos set text = ${`Todo edited ${run}`} where thread_id = ${sourceId} and position = 1`;
          await sql`update artifacts set content = ${`body ${run}`} where thread_id = ${sourceId} and key = ${artifact!.key}`;
          await sql`update conversations set objective = ${`Objective ${run}`} where thread_id = ${sourceId}`;
        },
      },
    );
    if (applied !== items.length) throw new Error(`only ${applied} of ${items.length} items changed the target`);
    depth[turns] = { ...timing, applied };
  }

  const depthRatio = ratio(depth[1000]!.p50, depth[10]!.p50);
  console.log(
    JSON.stringify({
      name: 'services.apply',
      unit: 'ms',
      depth: { turn_10: depth[10], turn_1000: depth[1000] },
      'apply.ratio_depth_1000_over_10': depthRatio,
      goal: 'apply.ratio_depth_1000_over_10 ≤ 1.5',
      meets_goal: { 'apply.ratio_depth_1000_over_10': depthRatio <= 1.5 },
    }),
  );
} finally {
  await world.dispose();
}
