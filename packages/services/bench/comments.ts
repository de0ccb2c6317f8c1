// `npm run bench` — listing a path's comments costs the changes since the list was last read, not
// the path's history: 100 passage comments on a 100 KB document after 10 edits against the same after
// 1,000 edits (each edit a sentence rewritten elsewhere in the document, so every comment is carried
// through every patch). The first list of each side carries the comments through the history; the
// samples are the lists a person's tab then makes (each after one more edit), the two sides
// alternating. p95 over p95.
import { createConversation } from '../src/conversations/create-conversation';
import { createComment, listComments } from '../src/comments/comments';
import { writeWorkspace, type ChangeAuthor } from '../src/workspace/write-workspace';
import { openBenchWorld } from './scratch';
import { ratio, timingOf } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const COMMENTS = 100;
const SENTENCES = 1_400;

const world = await openBenchWorld('trellis_bench_comments');
try {
  const { deps, actor } = world;
  const person: ChangeAuthor = { actor: 'person', actorId: actor.userId, via: 'editor' };

  async function seed(edits: number) {
    const threadId = (await createConversation(deps, actor, { title: `comments ${edits}` })).thread_id;
    const sentences = Array.from({ length: SENTENCES }, (_, i) => `Sentence ${String(i).padStart(4, '0')} holds a claim about trellises.`);
    const write = () => writeWorkspace({ db: deps.db }, { threadId, author: person, edits: [{ kind: 'document', content: sentences.join(' ') }] });
    await write();
    const text = sentences.join(' ');
    for (let c = 0; c < COMMENTS; c++) {
      const quote = sentences[c * 10 + 5]!;
      const start = text.indexOf(quote);
      await createComment(deps, actor, { threadId, anchor: { kind: 'passage', start, end: start + quote.length, quote }, body: `Comment ${c}` });
    }
    let n = 0;
    const edit = async () => {
      const at = (n * 7 + 3) % SENTENCES;
      sentences[at] = `Sentence ${String(at).padStart(4, '0')} was rewritten in edit ${n}.`;
      n++;
      await write();
    };
    for (let i = 0; i < edits; i++) await edit();
    await listComments(deps, actor, { threadId, status: 'all' });
    return { threadId, edit };
  }

  const sides = { edits_10: await seed(10), edits_1000: await seed(1000) };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const samples: Record<keyof typeof sides, number[]> = { edits_10: [], edits_1000: [] };
  const warmup = 3;
  for (let round = 0; round < warmup + RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      await sides[name].edit();
      const start = performance.now();
      const { comments } = await listComments(deps, actor, { threadId: sides[name].threadId, status: 'all' });
      if (round >= warmup) samples[name].push(performance.now() - start);
      if (comments.length !== COMMENTS) throw new Error(`listed ${comments.length} comments`);
    }
  }
  const timing = { edits_10: timingOf(samples.edits_10), edits_1000: timingOf(samples.edits_1000) };
  const p95Ratio = ratio(timing.edits_1000.p95, timing.edits_10.p95);
  console.log(
    JSON.stringify({
      name: 'services.comments',
      unit: 'ms',
      list: timing,
      'comments.list_p95_ratio_1000_over_10_edits': p95Ratio,
      goal: 'p95 of listing 100 passage comments on a 100 KB document after 1,000 edits over after 10 edits ≤ 1.5',
      meets_goal: { 'comments.list_p95_ratio_1000_over_10_edits': p95Ratio <= 1.5 },
    }),
  );
} finally {
  await world.dispose();
}
