// `npm run bench` — a replay step costs one step, never the path: two paths of 50 and 500
// steps, each step a person's sentence edit, the agent's rewrite and a to-do, with a snapshot opening
// every step as a turn captures it. Each sample moves the replay one change forward from a random
// place (`replayChange` at seq n+1). p95 on the 500-step path over p95 on the 50-step one.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createConversation } from '../src/conversations/create-conversation';
import { replayChange } from '../src/replay/replay-change';
import { snapshotCaptureCtes } from '../src/turns/snapshot-capture';
import { writeWorkspace, type ChangeAuthor } from '../src/workspace/write-workspace';
import { openBenchWorld } from './scratch';
import { ratio, timingOf, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SENTENCES = 200;

const world = await openBenchWorld('trellis_bench_replay');
try {
  const { deps, actor } = world;
  const person: ChangeAuthor = { actor: 'person', actorId: actor.userId, via: 'editor' };
  const agent: ChangeAuthor = { actor: 'agent', actorId: 'call_bench', via: 'agent_tool' };

  /** A path of `steps` steps of three changes each; returns its thread and its number of changes. */
  async function seed(steps: number) {
    const threadId = (await createConversation(deps, actor, { title: `replay ${steps}` })).thread_id;
    const sentences = Array.from(
      { length: SENTENCES },
      (_, i) => `Sentence ${i} is about vines that climb a trellis.`,
    );
    const write = (author: ChangeAuthor, edits: Parameters<typeof writeWorkspace>[1]['edits']) =>
      writeWorkspace({ db: deps.db }, { threadId, author, edits });
    await write(person, [{ kind: 'document', content: sentences.join(' ') }]);
    for (let step = 1; step <= steps; step++) {
      // A turn opens: the thread moves to turn `step` and snapshot `step` is captured, as begin-turn does.
      await deps.db.execute(sql`update conversations set turn_index = ${step} where thread_id = ${threadId}`);
      await deps.db.execute(
        sql`with ${snapshotCaptureCtes(threadId, `Step ${step}: tighten the argument.`)} select 1`,
      );
      const at = (step * 37) % SENTENCES;
      sentences[at] = `The agent rewrote sentence ${at} at step ${step}.`;
      await write(agent, [{ kind: 'document', content: sentences.join(' ') }]);
      await write(agent, [{ kind: 'todo_create', text: `Check step ${step}` }]);
      sentences[(at + 1) % SENTENCES] =
        `The person edited sentence ${(at + 1) % SENTENCES} after step ${step}.`;
      await write(person, [{ kind: 'document', content: sentences.join(' ') }]);
    }
    const total = (await replayChange(deps, actor, { threadId, seq: 1 })).total;
    return { threadId, total };
  }

  const sides = { steps_50: await seed(50), steps_500: await seed(500) };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const samples: Record<keyof typeof sides, number[]> = { steps_50: [], steps_500: [] };
  const warmup = 3;
  for (let round = 0; round < warmup + RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const { threadId, total } = sides[name];
      const seq = 1 + Math.floor(Math.random() * total);
      await replayChange(deps, actor, { threadId, seq });
      const start = performance.now();
      await replayChange(deps, actor, { threadId, seq: seq === total ? seq - 1 : seq + 1 });
      if (round >= warmup) samples[name].push(performance.now() - start);
    }
  }
  const timing: Record<string, Timing> = {
    steps_50: timingOf(samples.steps_50),
    steps_500: timingOf(samples.steps_500),
  };
  const p95Ratio = ratio(timing.steps_500!.p95, timing.steps_50!.p95);
  console.log(
    JSON.stringify({
      name: 'services.replay',
      unit: 'ms',
      one_step: timing,
      changes: { steps_50: sides.steps_50.total, steps_500: sides.steps_500.total },
      'replay.p95_ratio_500_over_50_steps': p95Ratio,
      goal: 'p95 of one replay step on a 500-step path over p95 on a 50-step path ≤ 1.5',
      meets_goal: { 'replay.p95_ratio_500_over_50_steps': p95Ratio <= 1.5 },
    }),
  );
} finally {
  await world.dispose();
}
