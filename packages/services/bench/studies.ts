// `npm run bench` — a study's two hot spots. The dashboard (`listStudyParticipants`) of a study with
// 200 participants against one with 20, each participant having written one turn in their family,
// the two sides alternating: p95 over p95. And 50 participants joining one open study at once (each
// join assigns a condition under the study's lock and seeds a family): p95 of one join's latency.
import { CreateStudySchema } from '@trellis/domain';
import { sql as drizzleSql } from 'drizzle-orm';
import { createStudy, updateStudy } from '../src/studies/manage-studies';
import { joinStudy } from '../src/studies/join-study';
import { listStudyParticipants } from '../src/studies/study-participants';
import { sendTurn } from '../src/turns/send-turn';
import { openBenchWorld } from './scratch';
import { ratio, timingOf } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const quick = process.env.BENCH_QUICK === '1';
const JOINERS = 50;

const world = await openBenchWorld('trellis_bench_studies');
try {
  const { deps, actor } = world;
  async function openStudy(): Promise<{ studyId: string; slug: string }> {
    const { study_id, join_url } = await createStudy(
      deps,
      actor,
      CreateStudySchema.parse({
        title: 'Bench study',
        seed: { objective: 'A short essay', document: { title: 'Essay', content: '# Essay\n\nA first paragraph to start from.' }, todos: [{ text: 'Outline' }] },
        conditions: [
          { name: 'branching', model: 'offline', branching: true },
          { name: 'linear', model: 'offline', branching: false },
        ],
      }),
    );
    await updateStudy(deps, actor, { studyId: study_id, patch: { status: 'open' } });
    return { studyId: study_id, slug: join_url.replace('/join/s/', '') };
  }
  async function studyWith(participants: number): Promise<string> {
    const { studyId, slug } = await openStudy();
    for (let i = 0; i < participants; i++) {
      const joined = await joinStudy(deps, { slug, join: { consent: true, pid: `bench-${participants}-${i}` } });
      const [row] = await deps.db.execute<{ user_id: string }>(drizzleSql`select user_id from study_participants where participant_id = ${joined.participantId}`);
      const stream = await sendTurn(deps, { kind: 'participant', userId: row!.user_id }, { threadId: joined.thread_id, content: `append: Participant ${i} adds a paragraph of their own.` });
      for await (const _ of stream) void _;
      await stream.settled;
    }
    return studyId;
  }

  const sides = { participants_20: await studyWith(20), participants_200: await studyWith(quick ? 60 : 200) };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const samples: Record<keyof typeof sides, number[]> = { participants_20: [], participants_200: [] };
  const warmup = 3;
  // A poll with nothing new costs about a millisecond: five times the runs, so one pause of the
  // collector or the machine is not the p95 of either side.
  for (let round = 0; round < warmup + RUNS * 5; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const start = performance.now();
      await listStudyParticipants(deps, actor, { studyId: sides[name] });
      if (round >= warmup) samples[name].push(performance.now() - start);
    }
  }
  const dashboard = { participants_20: timingOf(samples.participants_20), participants_200: timingOf(samples.participants_200) };
  const dashboardRatio = ratio(dashboard.participants_200.p95, dashboard.participants_20.p95);

  const { slug } = await openStudy();
  const joins = await Promise.all(
    Array.from({ length: JOINERS }, async (_, i) => {
      const start = performance.now();
      await joinStudy(deps, { slug, join: { consent: true, pid: `crowd-${i}` } });
      return performance.now() - start;
    }),
  );
  const join = timingOf(joins);

  console.log(
    JSON.stringify({
      name: 'services.studies',
      unit: 'ms',
      dashboard,
      join,
      'studies.dashboard_p95_ratio_200_over_20_participants': dashboardRatio,
      'studies.join_p95_ms': join.p95,
      goal: 'dashboard p95 with 200 participants over p95 with 20 ≤ 1.5; p95 of one join while 50 participants join at once ≤ 300 ms',
      meets_goal: {
        'studies.dashboard_p95_ratio_200_over_20_participants': dashboardRatio <= 1.5,
        'studies.join_p95_ms': join.p95 <= 300,
      },
    }),
  );
} finally {
  await world.dispose();
}
