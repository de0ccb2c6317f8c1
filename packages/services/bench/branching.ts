// `npm run bench` — branching and graph costs must not grow with history depth.
// Side by side in one run, each beside a raw-SQL floor for the same rows, timed in alternating
// rounds with it (stats.ts, timePaired):
//   branch creation at turn 10 and turn 1000 (100 KB document, 50 artifacts)
//   first read of the new branch at both depths
//   graph endpoint p50/p95 for a 500-node and a 5,000-node family
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { familyGraphScope, newThreadId } from '@trellis/domain';
import { createBranch } from '../src/branching/create-branch';
import { listMessages } from '../src/lineage/list-messages';
import { getWorkspace } from '../src/workspace/get-workspace';
import { getFamilyGraph } from '../src/graph/get-family-graph';
import { loadFamilyThreads } from '../src/graph/family-rows';
import { seedFamily, seedThreadWithHistory } from './seed-history';
import { openBenchWorld } from './scratch';
import { ratio, timePaired, timeRounds, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);

const world = await openBenchWorld('trellis_bench');
try {
  const { deps, sql, userId, actor } = world;

  const depths = [10, 1000] as const;
  const creation: Record<number, { service: Timing; floor: Timing }> = {};
  const firstRead: Record<number, { service: Timing; floor: Timing }> = {};
  for (const depth of depths) {
    const threadId = await seedThreadWithHistory(sql, { userId, turns: depth, documentBytes: 100_000, artifacts: 50 });
    const k = depth - 1; // the workspace comes from snapshot k+1 (with the 100 KB body)
    const created: string[] = [];
    creation[depth] = await timePaired(
      async () => created.push((await createBranch(deps, actor, { threadId, from_turn: k })).thread_id),
      () => rawBranchFloor(sql, userId, threadId, k),
      { runs: RUNS },
    );
    const branch = created.at(-1)!;
    firstRead[depth] = await timePaired(
      () => Promise.all([listMessages(deps, actor, { threadId: branch, limit_turns: 100 }), getWorkspace(deps, actor, { threadId: branch })]),
      () => rawFirstReadFloor(sql, threadId, branch, k),
      { runs: RUNS },
    );
  }

  // Every family is seeded first; then the service's calls on the families alternate round by round
  // (its p95 is compared across sizes, so a slow moment must weigh on every size alike), and so do the
  // floor's, apart from the service's (the floor's large reads would leave their garbage collection
  // in the service's tail).
  const families: { name: string; nodes: number; leafThreadId: string; visible: Parameters<typeof rawGraphFloor>[2]; floor_rows: { threads: number; turns: number } }[] = [];
  for (const [name, shape] of [
    ['nodes_500', { rootTurns: 100, branches: 8, branchTurns: 50 }],
    ['nodes_5000', { rootTurns: 1000, branches: 80, branchTurns: 50 }],
    // 10× the steps on the same 81 threads (the thread rows and the label walk grow with threads,
    // not steps); --quick (BENCH_QUICK) leaves it out
    ...(process.env.BENCH_QUICK ? [] : ([['nodes_50000', { rootTurns: 1040, branches: 80, branchTurns: 612 }]] as const)),
  ] as const) {
    const { leafThreadId } = await seedFamily(sql, { userId, ...shape });
    const nodes = shape.rootTurns + shape.branches * shape.branchTurns;
    // The floor is handed which threads are visible (the domain's walk, done once, untimed) and fetches
    // every row the service reads — ownership row, thread rows with label witnesses, the newest visible
    // turns with previews and counts, each visible thread's turn count — in one parallel wait, nothing
    // assembled.
    const { threads } = await loadFamilyThreads(deps.db, leafThreadId);
    const scope = familyGraphScope({ requestedThreadId: leafThreadId, threads });
    const rows = await rawGraphFloor(sql, leafThreadId, scope.visibleThreads, 500);
    const graph = await getFamilyGraph(deps, actor, { threadId: leafThreadId });
    if (graph.nodes.length !== Math.min(500, nodes) || rows.turns < graph.nodes.length) {
      throw new Error(`graph ${name}: ${graph.nodes.length} nodes from ${rows.turns} floor rows`);
    }
    families.push({ name, nodes, leafThreadId, visible: scope.visibleThreads, floor_rows: rows });
  }
  const byFamily = <T>(fn: (f: (typeof families)[number]) => T) => Object.fromEntries(families.map((f) => [f.name, fn(f)]));
  const serviceTimings = await timeRounds(byFamily((f) => () => getFamilyGraph(deps, actor, { threadId: f.leafThreadId })), { runs: RUNS * 4 });
  const floorTimings = await timeRounds(byFamily((f) => () => rawGraphFloor(sql, f.leafThreadId, f.visible, 500)), { runs: RUNS * 2 });
  const graphs: Record<string, { service: Timing; floor: Timing; nodes: number; floor_rows: { threads: number; turns: number } }> = byFamily(
    (f) => ({ nodes: f.nodes, floor_rows: f.floor_rows, service: serviceTimings[f.name]!, floor: floorTimings[f.name]! }),
  );

  const c10 = creation[10]!;
  const c1000 = creation[1000]!;
  const r10 = firstRead[10]!;
  const r1000 = firstRead[1000]!;
  const g500 = graphs.nodes_500!;
  const g5000 = graphs.nodes_5000!;
  const g50000 = graphs.nodes_50000;
  const p95Ratio5000 = ratio(g5000.service.p95, g500.service.p95);
  const p95Ratio50000 = g50000 === undefined ? null : ratio(g50000.service.p95, g5000.service.p95);
  console.log(
    JSON.stringify({
      name: 'services.branching',
      unit: 'ms',
      branch_creation: {
        turn_10: c10,
        turn_1000: c1000,
        ratio_1000_over_10: ratio(c1000.service.p50, c10.service.p50),
        floor_ratio_1000_over_10: ratio(c1000.floor.p50, c10.floor.p50),
        goal: 'ratio ≤ 1.5',
        meets_goal: ratio(c1000.service.p50, c10.service.p50) <= 1.5,
        p50_over_floor: overFloor(creation, 3),
      },
      first_read: {
        turn_10: r10,
        turn_1000: r1000,
        ratio_1000_over_10: ratio(r1000.service.p50, r10.service.p50),
        goal: 'ratio ≤ 1.5',
        meets_goal: ratio(r1000.service.p50, r10.service.p50) <= 1.5,
        p50_over_floor: overFloor(firstRead, 2),
      },
      graph: {
        nodes_500: g500,
        nodes_5000: g5000,
        ...(g50000 === undefined ? {} : { nodes_50000: g50000 }),
        p95_ratio_5000_over_500: { value: p95Ratio5000, goal: '≤ 1.3', meets_goal: p95Ratio5000 <= 1.3 },
        p95_ratio_50000_over_5000:
          p95Ratio50000 === null
            ? { value: null, goal: '≤ 1.3', meets_goal: null, note: 'not run with --quick' }
            : { value: p95Ratio50000, goal: '≤ 1.3', meets_goal: p95Ratio50000 <= 1.3 },
        floor_p95_ratio_5000_over_500: ratio(g5000.floor.p95, g500.floor.p95),
        p50_over_floor_500: ratio(g500.service.p50, g500.floor.p50),
        p50_over_floor_5000: ratio(g5000.service.p50, g5000.floor.p50),
        goal: 'p95 ratios ≤ 1.3; p50 within 3× of the raw-SQL floor',
        meets_goal: ratio(g500.service.p50, g500.floor.p50) <= 3 && ratio(g5000.service.p50, g5000.floor.p50) <= 3,
      },
    }),
  );
} finally {
  await world.dispose();
}

/** The service's p50 over its raw-SQL floor's at each depth; the figure is the worst depth. */
function overFloor(byDepth: Record<number, { service: Timing; floor: Timing }>, goal: number) {
  const each = Object.fromEntries(Object.entries(byDepth).map(([depth, t]) => [`turn_${depth}`, ratio(t.service.p50, t.floor.p50)]));
  const value = Math.max(...Object.values(each));
  return { value, ...each, goal: `≤ ${goal}`, meets_goal: value <= goal };
}

/** The same rows a branch writes, in one raw transaction: no validation, no seeding. */
async function rawBranchFloor(sql: postgres.Sql, userId: string, parent: string, k: number): Promise<void> {
  const child = newThreadId(randomUUID);
  await sql.begin(async (tx) => {
    await tx`insert into conversations (thread_id, user_id, root_thread_id, title, objective, turn_index)
      select ${child}, user_id, root_thread_id, title, objective, ${k} from conversations where thread_id = ${parent}`;
    await tx`insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
      values (${child}, ${parent}, ${k}, ${userId}, 'pending')`;
    await tx`insert into documents (thread_id, title, content)
      select ${child}, s.document_title, b.content from workspace_snapshots s join document_blobs b on b.hash = s.document_hash
      where s.thread_id = ${parent} and s.turn_index = ${k + 1}`;
    await tx`insert into preferences (thread_id, position, text, locked)
      select ${child}, (e.o - 1)::int, e.p->>'text', coalesce((e.p->>'locked')::boolean, false)
      from workspace_snapshots s, jsonb_array_elements(s.preferences) with ordinality e(p, o)
      where s.thread_id = ${parent} and s.turn_index = ${k + 1}`;
    await tx`insert into todos (thread_id, position, text, done, depth)
      select ${child}, (e.o - 1)::int, e.t->>'text', coalesce((e.t->>'done')::boolean, false), coalesce((e.t->>'depth')::int, 0)
      from workspace_snapshots s, jsonb_array_elements(s.todos) with ordinality e(t, o)
      where s.thread_id = ${parent} and s.turn_index = ${k + 1}`;
    await tx`insert into artifacts (thread_id, turn_index, kind, title, content)
      select ${child}, turn_index, kind, title, content from artifacts where thread_id = ${parent} and turn_index <= ${k} order by id`;
  });
  await sql`update conversation_branches set status = 'active' where thread_id = ${child}`;
}

/** The rows the first read shows: the last 100 turns of the path and the live workspace. */
async function rawFirstReadFloor(sql: postgres.Sql, parent: string, branch: string, k: number): Promise<void> {
  await Promise.all([
    sql`select id, turn_index, role, content, tool_calls, status, created_at from messages
      where (thread_id = ${parent} and turn_index between ${k - 99} and ${k}) or thread_id = ${branch} order by turn_index, seq`,
    sql`select c.objective, d.title, d.content,
      (select jsonb_agg(p order by p.position) from preferences p where p.thread_id = c.thread_id),
      (select jsonb_agg(t order by t.position) from todos t where t.thread_id = c.thread_id),
      (select jsonb_agg(a order by a.id) from artifacts a where a.thread_id = c.thread_id)
      from conversations c join documents d on d.thread_id = c.thread_id where c.thread_id = ${branch}`,
  ]);
}

/**
 * The rows the graph service reads (see src/graph/family-rows.ts), straight from SQL and all at once:
 * the requested thread's ownership row; every family thread with, for a branch, its parent's first turn
 * above the fork (and, when that one is no witness, the first captured before the branch); the newest
 * `maxNodes` visible turns (all of the last one's millisecond) with previous turn, message, reply
 * preview and artifact count; each visible thread's turn count.
 */
async function rawGraphFloor(
  sql: postgres.Sql,
  threadId: string,
  visible: readonly { thread_id: string; branch_point_turn: number | null }[],
  maxNodes: number,
): Promise<{ threads: number; turns: number }> {
  const [, threads, turns] = await Promise.all([
    sql`select c.*, b.parent_thread_id, b.branch_point_turn, b.status from conversations c
      left join conversation_branches b on b.thread_id = c.thread_id where c.thread_id = ${threadId}`,
    sql`select c.thread_id, b.parent_thread_id, b.branch_point_turn, b.reason, c.title, c.created_at, c.deleted_at,
        nt.turn_index as next_turn, nt.captured_at as next_captured_at, pt.turn_index as prior_turn, pt.captured_at as prior_captured_at
      from conversations c
      left join conversation_branches b on b.thread_id = c.thread_id
      left join conversation_branches pb on pb.thread_id = b.parent_thread_id
      left join lateral (select s.turn_index, s.captured_at from workspace_snapshots s
        where s.thread_id = b.parent_thread_id and s.turn_index > coalesce(b.branch_point_turn, 0)
          and (pb.branch_point_turn is null or s.turn_index > pb.branch_point_turn)
        order by s.turn_index limit 1) nt on true
      left join lateral (select s.turn_index, s.captured_at from workspace_snapshots s
        where s.thread_id = b.parent_thread_id and s.turn_index > nt.turn_index
          and (pb.branch_point_turn is null or s.turn_index > pb.branch_point_turn)
          and s.captured_at < date_trunc('milliseconds', c.created_at)
          and nt.captured_at >= date_trunc('milliseconds', c.created_at)
        order by s.turn_index limit 1) pt on true
      where c.root_thread_id = (select f.root_thread_id from conversations f where f.thread_id = ${threadId})
        and (b.status = 'active' or (b.thread_id is null and c.thread_id = c.root_thread_id))`,
    sql`with scope as (
        select v.thread_id, v.branch_point_turn
        from jsonb_to_recordset(${JSON.stringify(visible)}::jsonb) as v(thread_id text, branch_point_turn int)
      ), owned as materialized (
        select s.id, s.thread_id, s.turn_index, s.captured_at, v.branch_point_turn
        from scope v join workspace_snapshots s on s.thread_id = v.thread_id
        where v.branch_point_turn is null or s.turn_index > v.branch_point_turn
      ), newest as (
        select o.*, lag(o.turn_index) over (partition by o.thread_id order by o.turn_index) as kept_before
        from owned o
        where o.captured_at >= coalesce((
          select date_trunc('milliseconds', x.captured_at) from owned x order by x.captured_at desc offset ${maxNodes - 1} limit 1
        ), '-infinity')
      )
      select n.thread_id, n.turn_index, n.captured_at,
        case when n.kept_before = n.turn_index - 1 then n.kept_before else (select max(p.turn_index) from workspace_snapshots p
          where p.thread_id = n.thread_id and p.turn_index < n.turn_index
            and (n.branch_point_turn is null or p.turn_index > n.branch_point_turn)) end as previous_turn_index,
        (select s.user_message from workspace_snapshots s where s.id = n.id) as user_message,
        r.reply_preview, coalesce(r.tool_count, 0)::int as tool_count, coalesce(a.artifact_count, 0)::int as artifact_count,
        null::int as owned_turn_count
      from newest n
      left join lateral (select left(m.content, 240) as reply_preview, jsonb_array_length(m.tool_calls) as tool_count
        from messages m where m.thread_id = n.thread_id and m.turn_index = n.turn_index and m.role = 'assistant'
        order by m.seq desc limit 1) r on true
      left join lateral (select count(*) as artifact_count from artifacts x
        where x.thread_id = n.thread_id and x.turn_index = n.turn_index) a on true
      union all
      select o.thread_id, null, null, null, null, null, 0, 0, count(*)::int from owned o group by o.thread_id`,
  ]);
  return { threads: threads.length, turns: turns.filter((row) => row.owned_turn_count === null).length };
}
