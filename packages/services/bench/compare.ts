// `npm run bench` — compare costs follow the two states, never the history or the family:
//   compare of two steps on a 10-turn and a 1000-turn thread (100 KB document, 50 artifacts)
//   compare of two tips in a 500-node and a 5,000-node family
//   the service on two different 100 KB documents against the diff library alone on the same two
import { diffWordsWithSpace } from 'diff';
import type { NodeRef } from '@trellis/domain';
import { compareSteps } from '../src/compare/compare-steps';
import { documentOf, seedFamily, seedThreadWithHistory } from './seed-history';
import { openBenchWorld } from './scratch';
import { ratio, time, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);

/** A 100 KB document with about one word in twenty rewritten: a realistic revision of a long draft. */
function revised(doc: string): string {
  let n = 0;
  return doc.replace(/\S+/g, (word) => (++n % 20 === 0 ? `${word}ed` : word));
}

const world = await openBenchWorld('trellis_bench_compare');
try {
  const { deps, sql, userId, actor } = world;
  const at = (thread_id: string, turn: number): NodeRef => ({ thread_id, turn });

  const depth: Record<number, Timing> = {};
  for (const turns of [10, 1000]) {
    const threadId = await seedThreadWithHistory(sql, { userId, turns, documentBytes: 100_000, artifacts: 50 });
    // A snapshot-side step against the live tip.
    depth[turns] = await time(() => compareSteps(deps, actor, { threadId, a: at(threadId, turns - 5), b: at(threadId, turns) }), { runs: RUNS });
  }

  const family: Record<string, Timing & { nodes: number }> = {};
  for (const [name, shape] of [
    ['nodes_500', { rootTurns: 100, branches: 8, branchTurns: 50 }],
    ['nodes_5000', { rootTurns: 1000, branches: 80, branchTurns: 50 }],
  ] as const) {
    const { rootThreadId, leafThreadId } = await seedFamily(sql, { userId, ...shape });
    const [leaf] = await sql<{ turn_index: number }[]>`select turn_index from conversations where thread_id = ${leafThreadId}`;
    const timing = await time(
      () => compareSteps(deps, actor, { threadId: rootThreadId, a: at(rootThreadId, shape.rootTurns), b: at(leafThreadId, leaf!.turn_index) }),
      { runs: RUNS },
    );
    family[name] = { ...timing, nodes: shape.rootTurns + shape.branches * shape.branchTurns };
  }

  const threadId = await seedThreadWithHistory(sql, { userId, turns: 10, documentBytes: 100_000, artifacts: 0 });
  const before = documentOf(100_000);
  const after = revised(before);
  await sql`update documents set content = ${after} where thread_id = ${threadId}`;
  const check = await compareSteps(deps, actor, { threadId, a: at(threadId, 9), b: at(threadId, 10) });
  if (!check.document.changed || check.document.words_added === 0) throw new Error('the 100 KB documents did not differ');
  const service = await time(() => compareSteps(deps, actor, { threadId, a: at(threadId, 9), b: at(threadId, 10) }), { runs: RUNS });
  const floor = await time(async () => diffWordsWithSpace(before, after), { runs: RUNS });

  console.log(
    JSON.stringify({
      name: 'services.compare',
      unit: 'ms',
      depth: { turn_10: depth[10], turn_1000: depth[1000] },
      family,
      doc_100kb: { service, library_floor: floor, words_added: check.document.words_added },
      'compare.ratio_depth_1000_over_10': ratio(depth[1000]!.p50, depth[10]!.p50),
      'compare.ratio_family_5000_over_500': ratio(family.nodes_5000!.p50, family.nodes_500!.p50),
      'compare.doc_100kb_p50_over_library_floor': ratio(service.p50, floor.p50),
      goal: 'ratio_depth ≤ 1.5; ratio_family ≤ 1.5; doc_100kb over the library floor ≤ 2',
      meets_goal: {
        'compare.ratio_depth_1000_over_10': ratio(depth[1000]!.p50, depth[10]!.p50) <= 1.5,
        'compare.ratio_family_5000_over_500': ratio(family.nodes_5000!.p50, family.nodes_500!.p50) <= 1.5,
        'compare.doc_100kb_p50_over_library_floor': ratio(service.p50, floor.p50) <= 2,
      },
    }),
  );
} finally {
  await world.dispose();
}
