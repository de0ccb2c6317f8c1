import { sql } from 'drizzle-orm';
import { AppError, type Artifact, type RestoreView } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { assertAccessReading, type ThreadActor } from '../conversations/conversation-access';
import { lineageFacts, loadLineage } from '../lineage/load-lineage';
import { isoTimestamp } from '../workspace/iso-timestamp';
import { readPathMessages } from './path-messages';
import { readRestoreState } from './restore-state';
import { readLiveWorkspace } from '../workspace/read-live-workspace';

/**
 * "Continue from here", read-only (docs/branching.md, "The restore rule"):
 * the workspace as it stood after turn k and the transcript up to and including
 * turn k. Creates nothing.
 */
export async function getRestoreView(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: {
    threadId: string;
    turn: number;
    /** The transcript's first step (default 1): a reader that pages older steps asks for the newest ones only. */
    messagesFromTurn?: number;
  },
): Promise<RestoreView> {
  const { threadId, turn: k } = input;
  const lineage = await loadLineage(deps.db, threadId);
  const displayed = lineage.at(-1);
  if (!displayed) throw AppError.notFound('Conversation');
  await assertAccessReading(deps.db, displayed && lineageFacts(displayed), actor, 'read');
  const [restored, messages] = await Promise.all([
    readRestoreState(deps.db, lineage, k),
    readPathMessages(deps.db, lineage, { from: input.messagesFromTurn ?? 1, upTo: k }),
  ]);
  if (restored.source.kind === 'live') {
    // At the tip the preview is the live workspace itself, real ids included.
    return { thread_id: threadId, turn_index: k, workspace: await readLiveWorkspace(deps.db, threadId), messages };
  }
  // A thread holds copies of the artifacts it inherited, so ≤ k is complete.
  const artifacts = await deps.db.execute<Artifact & Record<string, unknown>>(sql`
    select id::text as id, key, number, turn_index, kind, title, content, ${isoTimestamp(sql`created_at`)} as created_at
    from artifacts where thread_id = ${threadId} and turn_index <= ${k} order by id`);
  const { state } = restored;
  // Snapshot items have no ids: stable synthetic ones, positions from list order.
  const stateId = `${threadId}:${k}`;
  return {
    thread_id: threadId,
    turn_index: k,
    workspace: {
      objective: state.objective,
      document: state.document,
      preferences: state.preferences.map((p, i) => ({ id: `${stateId}:p${i}`, key: p.key, text: p.text, locked: p.locked, position: i })),
      todos: state.todos.map((t, i) => ({ id: `${stateId}:t${i}`, key: t.key, text: t.text, done: t.done, depth: t.depth, position: i })),
      artifacts: artifacts.map((a) => ({ id: a.id, key: a.key, number: a.number, turn_index: a.turn_index, kind: a.kind, title: a.title, content: a.content, created_at: a.created_at })),
    },
    messages,
  };
}
