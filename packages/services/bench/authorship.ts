// `npm run bench` — authorship's cost follows the changes since the last read, never the history:
//   the same ~10 KB document after 10 and after 1,000 sentence edits (person and agent in turn); each
//   sample makes one more edit, then reads the live document's authorship (the read advances the
//   cached spans over that one change). p95 at 1,000 edits over p95 at 10 edits.
import { performance } from 'node:perf_hooks';
import { getAuthorship } from '../src/authorship/get-authorship';
import { createConversation } from '../src/conversations/create-conversation';
import { writeWorkspace, type ChangeAuthor } from '../src/workspace/write-workspace';
import { openBenchWorld } from './scratch';
import { ratio, timingOf, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SENTENCES = 200;

const world = await openBenchWorld('trellis_bench_authorship');
try {
  const { deps, actor } = world;
  const person: ChangeAuthor = { actor: 'person', actorId: actor.userId, via: 'editor' };
  const agent: ChangeAuthor = { actor: 'agent', actorId: 'call_bench', via: 'agent_tool' };

  /** One thread's document as sentences; each edit rewrites one of them, by the person or the agent in turn. */
  async function seed(edits: number) {
    const threadId = (await createConversation(deps, actor, { title: `authorship ${edits}` })).thread_id;
    const sentences = Array.from(
      { length: SENTENCES },
      (_, i) => `Sentence ${i} is about vines that climb a trellis.`,
    );
    let n = 0;
    const edit = async () => {
      n++;
      const at = (n * 37) % SENTENCES;
      sentences[at] = `Edit ${n} rewrote sentence ${at} about the garden.`;
      await writeWorkspace(
        { db: deps.db },
        {
          threadId,
          author: n % 2 === 0 ? agent : person,
          edits: [{ kind: 'document', content: sentences.join(' ') }],
        },
      );
    };
    await writeWorkspace(
      { db: deps.db },
      { threadId, author: person, edits: [{ kind: 'document', content: sentences.join(' ') }] },
    );
    for (let i = 0; i < edits; i++) await edit();
    // The first read computes from the first change and fills the cache; the timed reads follow it.
    await getAuthorship(deps, actor, { threadId });
    return { threadId, edit };
  }

  const sides = { edits_10: await seed(10), edits_1000: await seed(1000) };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const samples: Record<keyof typeof sides, number[]> = { edits_10: [], edits_1000: [] };
  let spans: Record<string, number> = {};
  const seen: Record<keyof typeof sides, number> = { edits_10: 0, edits_1000: 0 };
  const warmup = 3;
  for (let round = 0; round < warmup + RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      await sides[name].edit();
      const start = performance.now();
      // As the studio's overlay reads after an edit: the change details past those it already holds.
      const read = await getAuthorship(deps, actor, {
        threadId: sides[name].threadId,
        changesAfter: seen[name],
      });
      seen[name] = Math.max(seen[name], ...read.changes.map((c) => c.seq));
      if (round >= warmup) samples[name].push(performance.now() - start);
      spans = { ...spans, [name]: read.spans.length };
    }
  }
  const timing: Record<string, Timing> = {
    edits_10: timingOf(samples.edits_10),
    edits_1000: timingOf(samples.edits_1000),
  };
  const p95Ratio = ratio(timing.edits_1000!.p95, timing.edits_10!.p95);
  console.log(
    JSON.stringify({
      name: 'services.authorship',
      unit: 'ms',
      read_after_one_edit: timing,
      spans,
      'authorship.p95_ratio_1000_over_10_edits': p95Ratio,
      goal: 'p95 at 1,000 earlier edits over p95 at 10 ≤ 1.5',
      meets_goal: { 'authorship.p95_ratio_1000_over_10_edits': p95Ratio <= 1.5 },
    }),
  );
} finally {
  await world.dispose();
}
