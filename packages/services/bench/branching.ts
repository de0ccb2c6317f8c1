// `npm run bench` — branching and graph costs must not grow with history depth.
// Side by side in one run, each beside a raw-SQL floor for the same rows:
//   branch creation at turn 10 and turn 1000 (100 KB document, 50 artifacts)
//   first read of the new branch at both depths
//   graph endpoint p50/p95 for a 500-node and a 5,000-node family
import { randomUUID } from 'node:crypto';
import { OfflineChatModel, setupCheckpointer } from '@trellis/agent';
import { createScratchDatabase } from '@trellis/db/testing';
import { newThreadId } from '@trellis/domain';
import { createServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { createBranch } from '../src/branching/create-branch';
import { listMessages } from '../src/lineage/list-messages';
import { getWorkspace } from '../src/workspace/get-workspace';
import { getFamilyGraph } from '../src/graph/get-family-graph';
import { seedFamily, seedThreadWithHistory, seedUser } from './seed-history';
import { ratio, time, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);

const database = await createScratchDatabase('trellis_bench');
try {
  await setupCheckpointer({ connectionString: database.url, schema: CHECKPOINTER_SCHEMA });
  const deps = createServiceDeps({ databaseUrl: database.url, model: { instance: new OfflineChatModel() } });
  const { sql } = deps;
  const userId = await seedUser(sql);
  const actor = { userId };

  const depths = [10, 1000] as const;
  const creation: Record<number, { service: Timing; floor: Timing }> = {};
  const firstRead: Record<number, { service: Timing; floor: Timing }> = {};
  for (const depth of depths) {
    const threadId = await seedThreadWithHistory(sql, { userId, turns: depth, documentBytes: 100_000, artifacts: 50 });
    const k = depth - 1; // the workspace comes from snapshot k+1 (with the 100 KB body)
    const created: string[] = [];
    const service = await time(async () => created.push((await createBranch(deps, actor, { threadId, from_turn: k })).thread_id), { runs: RUNS });
    const floor = await time(() => rawBranchFloor(sql, userId, threadId, k), { runs: RUNS });
    creation[depth] = { service, floor };
    const branch = created.at(-1)!;
    firstRead[depth] = {
      service: await time(
        () => Promise.all([listMessages(deps, actor, { threadId: branch, limit_turns: 100 }), getWorkspace(deps, actor, { threadId: branch })]),
        { runs: RUNS },
      ),
      floor: await time(() => rawFirstReadFloor(sql, threadId, branch, k), { runs: RUNS }),
    };
  }

  const graphs: Record<string, { service: Timing; floor: Timing; nodes: number }> = {};
  for (const [name, shape] of [
    ['nodes_500', { rootTurns: 100, branches: 8, branchTurns: 50 }],
    ['nodes_5000', { rootTurns: 1000, branches: 80, branchTurns: 50 }],
  ] as const) {
    const { rootThreadId, leafThreadId } = await seedFamily(sql, { userId, ...shape });
    const nodes = shape.rootTurns + shape.branches * shape.branchTurns;
    graphs[name] = {
      nodes,
      service: await time(() => getFamilyGraph(deps, actor, { threadId: leafThreadId }), { runs: RUNS * 2 }),
      floor: await time(() => rawGraphFloor(sql, rootThreadId), { runs: RUNS * 2 }),
    };
  }

  const c10 = creation[10]!;
  const c1000 = creation[1000]!;
  const r10 = firstRead[10]!;
  const r1000 = firstRead[1000]!;
  const g500 = graphs.nodes_500!;
  const g5000 = graphs.nodes_5000!;
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
      },
      first_read: {
        turn_10: r10,
        turn_1000: r1000,
        ratio_1000_over_10: ratio(r1000.service.p50, r10.service.p50),
        goal: 'ratio ≤ 1.5',
      },
      graph: {
        nodes_500: g500,
        nodes_5000: g5000,
        p95_ratio_5000_over_500: ratio(g5000.service.p95, g500.service.p95),
        p50_over_floor_500: ratio(g500.service.p50, g500.floor.p50),
        p50_over_floor_5000: ratio(g5000.service.p50, g5000.floor.p50),
        goal: 'p95 ratio ≤ 1.5; p50 within 3× of the raw-SQL floor',
      },
    }),
  );
  await deps.close();
} finally {
  await database.dispose();
}

/** The same rows a branch writes, in one raw transaction: no validation, no seeding. */
async function rawBranchFloor(sql: import('postgres').Sql, userId: string, parent: string, k: number): Promise<void> {
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
async function rawFirstReadFloor(sql: import('postgres').Sql, parent: string, branch: string, k: number): Promise<void> {
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

/** The family's rows straight from SQL, nothing assembled. */
async function rawGraphFloor(sql: import('postgres').Sql, root: string): Promise<void> {
  await Promise.all([
    sql`select c.thread_id, b.parent_thread_id, b.branch_point_turn, c.title, c.created_at, c.deleted_at
      from conversations c left join conversation_branches b on b.thread_id = c.thread_id where c.root_thread_id = ${root}`,
    sql`select s.thread_id, s.turn_index, s.user_message, s.captured_at from workspace_snapshots s
      join conversations c on c.thread_id = s.thread_id where c.root_thread_id = ${root}
      order by s.captured_at desc limit 500`,
  ]);
}
