// `npm run bench` — two people in one document, side by side in one run:
//   cross-process keystroke: a live editor on one studio process (one set of service deps) sends a
//   keystroke (`pushDocumentUpdates`, the write path's transaction and its NOTIFY) until a live
//   editor attached to another process's family hub has it in its CodeMirror state (the signal
//   carries the update: no read of the log on the receiving side), over a bare NOTIFY round trip
//   between the same kinds of connection (pg_notify on the pool → a LISTEN connection).
import { performance } from 'node:perf_hooks';
import { collab, getSyncedVersion, receiveUpdates } from '@codemirror/collab';
import { ChangeSet, EditorState } from '@codemirror/state';
import { setupCheckpointer } from '@trellis/agent';
import { DocumentUpdatesSignalSchema, docPatchToChangeSetJson } from '@trellis/domain';
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { createConversation } from '../src/conversations/create-conversation';
import { pushDocumentUpdates } from '../src/collab/push-document-updates';
import { seedUser } from './seed-history';
import { bareNotifyFloor } from './bare-notify';
import { ratio, timingOf } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25) * 8;
const WARMUP = 10;

const database = await createScratchDatabase('trellis_bench_collab');
try {
  await setupCheckpointer({ connectionString: database.url, schema: CHECKPOINTER_SCHEMA });
  const one = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const other = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const userId = await seedUser(one.sql);
  const actor = { userId };
  const { thread_id: threadId } = await createConversation(one, actor, {});

  // The receiving editor: a CodeMirror state on `other`, fed by its hub's document signals.
  let remote = EditorState.create({ doc: '', extensions: [EditorState.lineSeparator.of('\n'), collab({ startVersion: 0, clientID: 'bench-remote-0001' })] });
  let waiting: { version: number; resolve: () => void } | null = null;
  const subscription = await other.family.subscribe(threadId, null);
  subscription.onSignal((signal) => {
    if (signal.event !== 'document_updates') return;
    const parsed = DocumentUpdatesSignalSchema.safeParse(signal.data);
    if (!parsed.success || !parsed.data.updates) return;
    const fresh = parsed.data.updates.filter((u) => u.version > getSyncedVersion(remote));
    if (fresh.length === 0) return;
    remote = receiveUpdates(
      remote,
      fresh.map((u) => ({ changes: ChangeSet.fromJSON(docPatchToChangeSetJson(u.patch, u.length)), clientID: u.client_id ?? '' })),
    ).state;
    if (waiting && getSyncedVersion(remote) >= waiting.version) waiting.resolve();
  });

  const crossSamples: number[] = [];
  let length = 0;
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const key = String.fromCharCode(97 + (i % 26));
    const version = i;
    const arrived = new Promise<void>((resolve) => (waiting = { version: version + 1, resolve }));
    const start = performance.now();
    await pushDocumentUpdates(one, actor, {
      threadId,
      push: { version, client_id: 'bench-local-0001', length, updates: [{ patch: [{ r: length }, { i: key }] }] },
    });
    await arrived;
    if (i >= WARMUP) crossSamples.push(performance.now() - start);
    length += 1;
  }
  subscription.end('closed');
  const isConverged = remote.doc.length === length;

  // The floor: a bare NOTIFY from the same pool to a LISTEN connection of its own.
  const bare = await bareNotifyFloor(one.sql, database.url, { runs: RUNS, warmup: WARMUP });
  await Promise.all([one.close(), other.close()]);

  const cross = timingOf(crossSamples);
  const crossRatio = ratio(cross.p95, bare.p95);
  console.log(
    JSON.stringify({
      name: 'services.collab',
      unit: 'ms',
      keystroke_cross_process: cross,
      bare_notify: bare,
      converged: isConverged,
      'collab.p95_ratio_cross_process_over_notify': crossRatio,
      goal: 'collab.p95_ratio_cross_process_over_notify ≤ 3',
      meets_goal: { 'collab.p95_ratio_cross_process_over_notify': crossRatio <= 3 && isConverged },
    }),
  );
} finally {
  await database.dispose();
}
