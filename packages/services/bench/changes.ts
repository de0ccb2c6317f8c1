// `npm run bench` — the write path's costs, side by side in one run:
//   changes.bytes_per_edit_100kb_doc: the stored size of the change row a one-sentence edit of a
//     100 KB document appends (the largest of several edits; goal ≤ 2,048 bytes)
//   edit.p50_over_floor: a versioned document save through the service (ownership, lock, base
//     version, patch, change row, NOTIFY, the answer's read) against the bare SQL update of the same
//     row with the same text, timed in alternating rounds (goal ≤ 3)
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { createConversation } from '../src/conversations/create-conversation';
import { patchWorkspace } from '../src/workspace/patch-workspace';
import { seedUser } from './seed-history';
import { ratio, timePaired } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25) * 2;
const EDITS = 10;

/** ~100 KB of distinct sentences (a real document, not one repeated line). */
function documentOf(bytes: number): string {
  const sentences: string[] = [];
  for (let i = 0; sentences.join(' ').length < bytes; i++) {
    sentences.push(`Sentence ${i} weighs the evidence of section ${i % 37} against the objections raised in review round ${i % 11}.`);
  }
  return `# Bench document\n\n${sentences.join(' ')}`.slice(0, bytes);
}

const database = await createScratchDatabase('trellis_bench_changes');
try {
  const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const { sql } = deps;
  const actor = { userId: await seedUser(sql) };
  const body = documentOf(100_000);
  const threadId = (await createConversation(deps, actor, {})).thread_id;
  let version = (await patchWorkspace(deps, actor, { threadId, patch: { document: { content: body } } })).document.version;

  // One sentence edited per save, somewhere different each time.
  const edited = (i: number) => body.replace(`Sentence ${100 * i + 50} weighs`, `Sentence ${100 * i + 50} now carefully weighs`);
  const rowBytes: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const saved = await patchWorkspace(deps, actor, { threadId, patch: { document: { content: edited(i), base_version: version } } });
    version = saved.document.version;
    const [row] = await sql<{ bytes: number }[]>`
      select pg_column_size(w.*) as bytes from workspace_changes w
      where thread_id = ${threadId} and kind = 'document' order by seq desc limit 1`;
    rowBytes.push(Number(row!.bytes));
  }
  const bytesPerEdit = Math.max(...rowBytes);

  // Each call writes the text the row does not hold, so every save is a real one-sentence change.
  const texts = [edited(0), edited(1)];
  let serviceTurn = 0;
  let floorTurn = 0;
  const service = async () => {
    const saved = await patchWorkspace(deps, actor, {
      threadId,
      patch: { document: { content: texts[serviceTurn++ % 2]!, base_version: version } },
    });
    version = saved.document.version;
  };
  const floorThread = (await createConversation(deps, actor, {})).thread_id;
  await sql`update documents set content = ${body} where thread_id = ${floorThread}`;
  const floor = () => sql`update documents set content = ${texts[floorTurn++ % 2]!}, updated_at = now() where thread_id = ${floorThread}`;
  const timing = await timePaired(service, floor, { runs: RUNS, warmup: 5 });
  await deps.close();

  const editRatio = ratio(timing.service.p50, timing.floor.p50);
  console.log(
    JSON.stringify({
      name: 'services.changes',
      unit: 'ms',
      document_bytes: body.length,
      change_row_bytes: rowBytes,
      edit: timing,
      'changes.bytes_per_edit_100kb_doc': bytesPerEdit,
      'edit.p50_over_floor': editRatio,
      goal: 'changes.bytes_per_edit_100kb_doc ≤ 2048; edit.p50_over_floor ≤ 3',
      meets_goal: {
        'changes.bytes_per_edit_100kb_doc': bytesPerEdit <= 2048,
        'edit.p50_over_floor': editRatio <= 3,
      },
    }),
  );
} finally {
  await database.dispose();
}
