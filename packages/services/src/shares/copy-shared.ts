// "Continue in my account" (docs/sharing.md): a new family of the caller's, seeded with the shared
// path's transcript and workspace as of a step, made like every other thread — TX1 behind a
// pending root marker, the checkpointer seeded, then activated, with compensation on any failure.
// It copies rows instead of pointing at the original (a branch reads its prefix through its
// ancestors, which would be reading someone else's family), and grants nothing on the original.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { newThreadId, type Message } from '@trellis/domain';
import { conversationBranches, conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { actorUserId, type ThreadActor } from '../conversations/conversation-access';
import { loadLineage, type LineageRow } from '../lineage/load-lineage';
import { readPathMessages, withoutReplacedAttempts } from '../branching/path-messages';
import { pendingRootRow, seedAndActivate } from '../branching/pending-threads';
import { readRestoreState } from '../branching/restore-state';
import { writeWorkspace } from '../workspace/write-workspace';
import type { Tx } from '../workspace/thread-lock';
import { copyPathArtifacts, createEmptyDocuments } from '../workspace/write/workspace-copies';
import { resolveShare } from './read-shared';

export async function copySharedPath(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: { token: string; turn?: number | undefined },
): Promise<{ thread_id: string }> {
  return deps.gate.run('the copy', () => copyNow(deps, actor, input));
}

async function copyNow(deps: ServiceDeps, actor: ThreadActor, input: { token: string; turn?: number | undefined }) {
  const link = await resolveShare(deps, input.token);
  const k = Math.min(input.turn ?? link.turn, link.turn);
  const lineage = await loadLineage(deps.db, link.threadId);
  const [{ state }, transcript] = await Promise.all([
    readRestoreState(deps.db, lineage, k),
    readPathMessages(deps.db, lineage, { from: 1, upTo: k }),
  ]);
  const messages = withoutReplacedAttempts(transcript);
  const threadId = newThreadId(randomUUID);
  await deps.db.transaction(async (tx) => {
    await tx.insert(conversations).values({
      threadId,
      rootThreadId: threadId,
      userId: actorUserId(actor),
      title: link.title,
      objective: state.objective,
      turnIndex: k,
      messageCount: messages.length,
      startedFrom: 'shared_link',
    });
    await tx.insert(conversationBranches).values(pendingRootRow(threadId, actorUserId(actor)));
    await copyMessages(tx, threadId, messages);
    await copySnapshots(tx, threadId, lineage, k);
    await copyPathArtifacts(tx, { threadId, sourceThreadId: link.threadId, k });
    await tx.execute(sql`
      update conversations set last_artifact_number = coalesce((select max(number) from artifacts where thread_id = ${threadId}), 0)
      where thread_id = ${threadId}`);
    await createEmptyDocuments(tx, [threadId]);
    // The copied workspace is the family's first change, made by the studio from the link.
    await writeWorkspace(
      { tx },
      {
        threadId,
        author: { actor: 'system', actorId: null, via: 'import', viaSource: 'shared_link' },
        edits: [
          {
            kind: 'state',
            target: {
              objective: state.objective,
              document: state.document,
              preferences: state.preferences.map((p) => ({ key: p.key ?? null, text: p.text, locked: p.locked })),
              todos: state.todos.map((t) => ({ key: t.key ?? null, text: t.text, done: t.done, depth: t.depth })),
            },
            options: { removeMissing: true, turnIndex: k },
          },
        ],
      },
    );
  });
  await seedAndActivate(deps, {
    userId: actorUserId(actor),
    threads: [{ threadId, prefix: () => messages.slice(-deps.contextBudget.maxMessages) }],
    failureMessage: 'The copy could not be made; nothing was left behind. Try again.',
    freshThreads: true,
  });
  return { thread_id: threadId };
}

async function copyMessages(tx: Tx, threadId: string, messages: Message[]) {
  if (messages.length === 0) return;
  const rows = messages.map((m, position) => ({
    position,
    turn_index: m.turn_index,
    role: m.role,
    content: m.content,
    tool_calls: m.tool_calls,
    status: m.status,
    reason: m.reason ?? null,
    kind: m.kind ?? null,
    // An apply entry keeps what it brought, not where from: the source is a path of another family.
    provenance: m.provenance ? { source_node_id: '', source_label: 'the shared path', items: m.provenance.items, note: m.provenance.note } : null,
    created_at: m.created_at,
  }));
  await tx.execute(sql`
    insert into messages (thread_id, turn_index, role, content, tool_calls, status, reason, kind, provenance, created_at)
    select ${threadId}, r.turn_index, r.role, r.content, r.tool_calls, r.status, r.reason, r.kind, r.provenance, r.created_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(position int, turn_index int, role text, content text, tool_calls jsonb, status text, reason text, kind text, provenance jsonb, created_at timestamptz)
    order by r.position`);
}

/** Snapshots 1..k of the path, each read from the thread that owns its turn. */
async function copySnapshots(
  tx: Tx,
  threadId: string,
  lineage: readonly LineageRow[],
  k: number,
) {
  const ranges = lineage.map((entry, i) => ({
    thread_id: entry.thread_id,
    from: (entry.branch_point_turn ?? 0) + 1,
    to: Math.min(lineage[i + 1]?.branch_point_turn ?? entry.turn_index, k),
  }));
  await tx.execute(sql`
    insert into workspace_snapshots (thread_id, turn_index, objective, document_title, document_hash, preferences, todos, user_message, captured_at)
    select ${threadId}, s.turn_index, s.objective, s.document_title, s.document_hash, s.preferences, s.todos, s.user_message, s.captured_at
    from jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as r(thread_id text, "from" int, "to" int)
    join workspace_snapshots s on s.thread_id = r.thread_id and s.turn_index between r."from" and r."to"`);
}
