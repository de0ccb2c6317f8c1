// `npm run bench` — the turn loop must cost the same at turn 500 as at turn 10,
// and storage must grow with what changed, not with the history.
// Side by side in one run, on a scratch database (embedded PostgreSQL unless
// DATABASE_URL), with the instant offline model so the model costs nothing:
//   non-model turn overhead around turn 10 and turn 500 (median of 11 real turns each, interleaved)
//   a turn in which the agent appends to the document (one tool write), over its raw-SQL floor
//   bytes (checkpointer + snapshots + document bodies + messages) of that thread at turns 100 and 200
// The long thread runs 200 real turns; turns 201..494 are then written in SQL as
// copies of turn 200's rows (same sizes, same indexes), because the agent's
// working context is already at its steady state by turn 200 (bounded and
// pruned) and 300 more real turns would mostly time the agent. Set
// BENCH_REAL_TURNS=1 to drive every turn for real (about a minute longer).
//   bytes added per turn with an unchanged 100 KB document
//   1,000 races of two studio processes (separate pools) sending to one thread: turns lost
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type postgres from 'postgres';
import { createScratchDatabase } from '@trellis/db/testing';
import { isAppError } from '@trellis/domain';
import { createServiceDeps } from '../src/deps';
import { migrateAll } from '../src/migrate-all';
import { createConversation } from '../src/conversations/create-conversation';
import { patchWorkspace } from '../src/workspace/patch-workspace';
import { copyTurns, incompressibleDocument, message, runTurn, threadBytes } from './harness';
import { documentOf, seedUser } from './seed-history';
import { median, ratio, round, timingOf } from './stats';

const RACES = Number(process.env.BENCH_RACES ?? 1000);
const SAMPLE = 11; // timed turns centred on the turn of interest
/** Timed long-thread turns and floor samples for the turn's distance to its floor (the first SAMPLE are the ones above). */
const FLOOR_SAMPLE = 61;

const startedAt = performance.now();
const database = await createScratchDatabase('trellis_bench_turns');
try {
  await migrateAll({ databaseUrl: database.url });
  const processes = [0, 1].map(() =>
    createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' }, poolSize: 5 }),
  ) as [ReturnType<typeof createServiceDeps>, ReturnType<typeof createServiceDeps>];
  const [deps] = processes;
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const actor = { userId: await seedUser(deps.sql) };

  // 1 + 2. A long thread driven to turn 494 (bytes measured at 100 and 200 on the way) and a
  // short one driven to turn 4; then their timed turns alternate (short, long, short, …) so
  // whatever else the machine does weighs on both sides alike.
  const workspace = { objective: 'Measure the turn loop', document: { title: 'Bench', content: documentOf(2_000) } };
  const long = (await createConversation(deps, actor, { title: 'long' })).thread_id;
  const short = (await createConversation(deps, actor, { title: 'short' })).thread_id;
  await patchWorkspace(deps, actor, { threadId: long, patch: workspace });
  await patchWorkspace(deps, actor, { threadId: short, patch: workspace });
  const half = (SAMPLE - 1) / 2;
  const bytes: Record<number, number> = {};
  const isAllReal = process.env.BENCH_REAL_TURNS === '1';
  for (let turn = 1; turn < 500 - half; turn++) {
    if (!isAllReal && turn === 201) turn = await copyTurns(deps, long, 200, 500 - half - 1);
    await runTurn(deps, actor, long, message(turn));
    if (turn === 100 || turn === 200) bytes[turn] = await threadBytes(deps, pool, long);
  }
  for (let turn = 1; turn < 10 - half; turn++) await runTurn(deps, actor, short, message(turn));
  // 1b. The turn's floor: the lease update, the snapshot insert and the message insert alone, as raw
  // SQL, then the reply insert that releases the lease — timed right after each real turn on the
  // long thread, so the machine's load weighs on the turn and its floor alike, on a thread of its own
  // with the same workspace (a floor turn on the long thread would count as another process's turn
  // there, and make its next real turn ask the checkpointer what it already knows). Each
  // timed piece starts once the turns before it have settled (their change-summary follow-ups run
  // after `done`, off the turn's latency), so neither side pays for the other's follow-up.
  const floorThread = (await createConversation(deps, actor, { title: 'floor' })).thread_id;
  await patchWorkspace(deps, actor, { threadId: floorThread, patch: workspace });
  await runTurn(deps, actor, floorThread, message(1));
  await rawTurnFloor(deps.sql, floorThread); // prepares its statements
  // The first SAMPLE rounds time a short turn, a long one and a floor; the rest a long turn and a
  // floor only, so the distance to the floor is a median of FLOOR_SAMPLE pairs (turns 495–555).
  const overhead: Record<10 | 500, number[]> = { 10: [], 500: [] };
  const floorSamples: number[] = [];
  for (let i = 0; i < FLOOR_SAMPLE; i++) {
    for (const [centre, threadId] of [
      [10, short],
      [500, long],
    ] as const) {
      if (centre === 10 && i >= SAMPLE) continue;
      await deps.gate.followUpsOf([short, long]);
      const start = performance.now();
      await runTurn(deps, actor, threadId, message(centre - half + i));
      overhead[centre].push(performance.now() - start);
    }
    await deps.gate.followUpsOf([short, long]);
    const start = performance.now();
    await rawTurnFloor(deps.sql, floorThread);
    floorSamples.push(performance.now() - start);
  }
  const floor = timingOf(floorSamples);
  const longTurns = timingOf(overhead[500]);

  // 1c. A turn in which the agent writes the document: one `append` tool call through the write path
  // (the document's new version, its change row, the family's event and both NOTIFYs), beside the
  // turn's floor plus that write's rows as one raw statement, alternating in the same way.
  const writer = (await createConversation(deps, actor, { title: 'tool writes' })).thread_id;
  await patchWorkspace(deps, actor, { threadId: writer, patch: workspace });
  const writeFloorThread = (await createConversation(deps, actor, { title: 'tool write floor' })).thread_id;
  await patchWorkspace(deps, actor, { threadId: writeFloorThread, patch: workspace });
  await runTurn(deps, actor, writeFloorThread, message(1));
  const versionBefore = await documentVersion(deps.sql, writer);
  await rawToolWriteFloor(deps.sql, writeFloorThread, actor.userId); // prepares its statements
  const writeTurnSamples: number[] = [];
  const writeFloorSamples: number[] = [];
  for (let i = 0; i < FLOOR_SAMPLE; i++) {
    await deps.gate.followUpsOf([writer]);
    let start = performance.now();
    await runTurn(deps, actor, writer, `append: Paragraph ${i + 1} of what the agent writes, one per turn.`);
    writeTurnSamples.push(performance.now() - start);
    await deps.gate.followUpsOf([writer]);
    start = performance.now();
    await rawToolWriteFloor(deps.sql, writeFloorThread, actor.userId);
    writeFloorSamples.push(performance.now() - start);
  }
  const writes = (await documentVersion(deps.sql, writer)) - versionBefore;
  if (writes !== FLOOR_SAMPLE) throw new Error(`the agent wrote the document ${writes} times in ${FLOOR_SAMPLE} turns`);
  const writeTurns = timingOf(writeTurnSamples);
  const writeFloor = timingOf(writeFloorSamples);

  // 3. Bytes per turn with an unchanged 100 KB document (incompressible, so TOAST cannot hide a copy).
  const big = (await createConversation(deps, actor, { title: 'big document' })).thread_id;
  const random = incompressibleDocument();
  await patchWorkspace(deps, actor, { threadId: big, patch: { document: { title: 'Big', content: random } } });
  for (let turn = 1; turn <= 5; turn++) await runTurn(deps, actor, big, message(turn));
  const before = await threadBytes(deps, pool, big);
  const MEASURED = 20;
  for (let turn = 6; turn < 6 + MEASURED; turn++) await runTurn(deps, actor, big, message(turn));
  const perTurn = (await threadBytes(deps, pool, big)) - before;

  // 4. Races: two processes, one thread; every race either serializes or refuses with turn_in_progress.
  const raced = (await createConversation(deps, actor, { title: 'races' })).thread_id;
  let accepted = 0;
  let refused = 0;
  let otherErrors = 0;
  const raceStart = performance.now();
  for (let race = 0; race < RACES; race++) {
    const results = await Promise.allSettled(
      processes.map((d, p) => runTurn(d, actor, raced, `race ${race} from process ${p}`)),
    );
    for (const r of results) {
      if (r.status === 'fulfilled') accepted++;
      else if (isAppError(r.reason) && r.reason.code === 'turn_in_progress') refused++;
      else otherErrors++;
    }
  }
  const raceSeconds = (performance.now() - raceStart) / 1000;
  const [state] = await deps.sql<{ turn_index: number; snapshots: number; gapless: boolean; users: number; replies: number }[]>`
    select c.turn_index,
      (select count(*)::int from workspace_snapshots s where s.thread_id = c.thread_id) as snapshots,
      (select coalesce(bool_and(s.turn_index = s.n), true) from (
        select turn_index, row_number() over (order by turn_index) as n from workspace_snapshots where thread_id = c.thread_id) s) as gapless,
      (select count(*)::int from messages m where m.thread_id = c.thread_id and m.role = 'user') as users,
      (select count(*)::int from messages m where m.thread_id = c.thread_id and m.role = 'assistant' and m.status = 'complete') as replies
    from conversations c where c.thread_id = ${raced}`;
  const turnsLost = accepted - Math.min(state!.turn_index, state!.snapshots, state!.users, state!.replies);

  const t10 = median(overhead[10]);
  const t500 = median(overhead[500].slice(0, SAMPLE));
  console.log(
    JSON.stringify({
      name: 'services.turns',
      turn_overhead_ms: {
        turn_10: t10,
        turn_500: t500,
        ratio_500_over_10: ratio(t500, t10),
        samples_each: SAMPLE,
        goal: 'ratio ≤ 1.5',
        meets_goal: ratio(t500, t10) <= 1.5,
      },
      turns: {
        p50_over_floor: {
          value: ratio(longTurns.p50, floor.p50),
          turns_495_to_555: longTurns,
          floor,
          goal: '≤ 3',
          meets_goal: ratio(longTurns.p50, floor.p50) <= 3,
        },
        tool_write_p50_over_floor: {
          value: ratio(writeTurns.p50, writeFloor.p50),
          turns_with_one_document_write: writeTurns,
          floor: writeFloor,
          goal: '≤ 3',
          meets_goal: ratio(writeTurns.p50, writeFloor.p50) <= 3,
        },
      },
      thread_bytes: {
        turn_100: bytes[100],
        turn_200: bytes[200],
        ratio_200_over_100: ratio(bytes[200]!, bytes[100]!),
        goal: 'ratio ≤ 2.2',
        meets_goal: ratio(bytes[200]!, bytes[100]!) <= 2.2,
      },
      bytes_per_turn_unchanged_100kb_document: {
        bytes: Math.round(perTurn / MEASURED),
        turns_measured: MEASURED,
        goal: '≤ 5120',
        meets_goal: perTurn / MEASURED <= 5120,
      },
      races: {
        races: RACES,
        accepted,
        refused_turn_in_progress: refused,
        other_errors: otherErrors,
        turn_index: state!.turn_index,
        snapshots_gapless: state!.gapless,
        turns_lost: turnsLost,
        seconds: round(raceSeconds),
        goal: 'turns_lost = 0, other_errors = 0',
        meets_goal: turnsLost === 0 && otherErrors === 0,
      },
      seconds: round((performance.now() - startedAt) / 1000),
    }),
  );
  await pool.end();
  await Promise.all(processes.map((d) => d.close()));
} finally {
  await database.dispose();
}

/** A turn's rows and nothing else: the lease update, the snapshot insert, the message insert; then the reply releasing the lease. */
async function rawTurnFloor(sql: postgres.Sql, threadId: string): Promise<void> {
  const owner = randomUUID();
  const turn = await sql.begin(async (tx) => {
    const [row] = await tx<{ turn_index: number }[]>`update conversations
      set lease_owner = ${owner}, lease_expires_at = now() + interval '60 seconds', turn_index = turn_index + 1,
        message_count = message_count + 1, updated_at = now()
      where thread_id = ${threadId} returning turn_index`;
    const t = row!.turn_index;
    await tx`insert into workspace_snapshots (thread_id, turn_index, objective, document_title, document_hash, preferences, todos, user_message)
      select thread_id, ${t}, objective, document_title, document_hash, preferences, todos, ${message(t).slice(0, 200)}
      from workspace_snapshots where thread_id = ${threadId} and turn_index = ${t - 1}`;
    await tx`insert into messages (thread_id, turn_index, role, content) values (${threadId}, ${t}, 'user', ${message(t)})`;
    return t;
  });
  await sql`with reply as (insert into messages (thread_id, turn_index, role, content, tool_calls, status)
      values (${threadId}, ${turn}, 'assistant', ${message(turn)}, '[]'::jsonb, 'complete'))
    update conversations set message_count = message_count + 1, lease_owner = null, lease_expires_at = null where thread_id = ${threadId}`;
}

/** A turn's floor (rawTurnFloor) with one document write's rows: the new text and version, its change row and a NOTIFY, in one statement. */
async function rawToolWriteFloor(sql: postgres.Sql, threadId: string, userId: string): Promise<void> {
  await rawTurnFloor(sql, threadId);
  await sql`with d as (
      update documents set content = content || ${'\n\nA paragraph of what the agent writes, one per turn.'}, version = version + 1, updated_at = now()
      where thread_id = ${threadId} returning version),
    c as (
      insert into workspace_changes (thread_id, seq, turn, actor, actor_id, via, kind, key, op, before, after)
      select ${threadId}, (select coalesce(max(seq), 0) + 1 from workspace_changes where thread_id = ${threadId}), 0, 'user', ${userId}, 'editor',
        'document', null, 'patch', jsonb_build_object('version', d.version - 1), jsonb_build_object('version', d.version)
      from d returning seq)
    select pg_notify('trellis_bench_floor', seq::text) from c`;
}

async function documentVersion(sql: postgres.Sql, threadId: string): Promise<number> {
  const [row] = await sql<{ version: number }[]>`select version from documents where thread_id = ${threadId}`;
  return Number(row?.version ?? 0);
}
