// TX1 of an import: every planned thread's rows, as the turn loop would have written them, behind
// PENDING branch rows (docs/branching.md, "Creating a branch: three phases and the sweeper"). Per thread: the conversation,
// its pending row (a root gets the self-referencing marker), an empty document, and for each turn
// it OWNS the user message, the reply, and snapshot k of the empty workspace with the prompt's
// preview — a branch reads its prefix through the lineage, so nothing is stored twice. Rows go in
// as JSON record sets, a batch of about BATCH_BYTES per statement. Building, serializing and
// sending 200,000 records' rows is CPU on the request thread, so it never runs longer than
// SLICE_MS without yielding to the event loop: other requests wait one slice, not the whole import
// (one 20 MB statement held the loop for a quarter of a second while the driver encoded it).
import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { previewText } from '@trellis/domain';
import type { StoredToolCall } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { pendingRootRow } from '../branching/pending-threads';
import { ownedTurns, type ImportPlan, type PlannedThread } from './import-plan';
import { createEmptyDocuments } from '../workspace/write/workspace-copies';

export const IMPORT_BRANCH_REASON = 'import';

/** The longest the writer runs on the event loop between two yields. */
const SLICE_MS = 8;
/** About this much JSON per insert statement: the driver encodes a statement in one go. */
const BATCH_BYTES = 512 * 1024;

interface MessageRow {
  position: number;
  thread_id: string;
  turn_index: number;
  role: 'user' | 'assistant';
  content: string;
  tool_calls: StoredToolCall[];
  compacted_before: boolean;
  created_at: string | null;
}

interface SnapshotRow {
  thread_id: string;
  turn_index: number;
  user_message: string;
  captured_at: string | null;
}

export async function writePendingImport(
  deps: Pick<ServiceDeps, 'db'>,
  userId: string,
  plan: ImportPlan,
  contentHash: string,
): Promise<void> {
  const rootOf = familyRoots(plan.threads);
  const conversations = plan.threads.map((t) => ({
    thread_id: t.threadId,
    root_thread_id: rootOf.get(t.threadId)!,
    import_content_hash: t.parentThreadId === null ? contentHash : null,
    title: t.title,
    turn_index: t.path.length,
    message_count: t.path.reduce((n, turn) => n + (turn.reply === null ? 1 : 2), 0),
  }));
  // The sweeper reclaims pending rows oldest first: the deeper a thread, the older its row, so a
  // crashed import is swept leaves first and no child outlives its parent's row.
  const branches = plan.threads.map((t) => ({
    ...(t.parentThreadId === null
      ? pendingRootRow(t.threadId, userId)
      : {
          threadId: t.threadId,
          parentThreadId: t.parentThreadId,
          branchPointTurn: t.branchPointTurn ?? 0,
          reason: IMPORT_BRANCH_REASON,
          userId,
          status: 'pending' as const,
        }),
    depth: t.depth,
  }));
  const messages: MessageRow[] = [];
  const snapshots: SnapshotRow[] = [];
  const slice = new EventLoopSlice(SLICE_MS);
  for (const thread of plan.threads) {
    for (const { turnIndex, turn } of ownedTurns(thread)) {
      await slice.yieldIfDue();
      const base = { thread_id: thread.threadId, turn_index: turnIndex };
      messages.push({ ...base, position: messages.length, role: 'user', content: turn.prompt, tool_calls: [],
        compacted_before: turn.compactedBefore, created_at: turn.promptAt });
      if (turn.reply !== null) {
        messages.push({
          ...base,
          position: messages.length,
          role: 'assistant',
          content: turn.reply,
          tool_calls: turn.toolCalls,
          compacted_before: false,
          created_at: turn.replyAt,
        });
      }
      snapshots.push({ ...base, user_message: previewText(turn.prompt), captured_at: turn.promptAt });
    }
  }

  const messageBatches = await jsonBatches(messages, slice);
  const snapshotBatches = await jsonBatches(snapshots, slice);
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into conversations (thread_id, root_thread_id, user_id, title, turn_index, message_count, import_content_hash)
      select c.thread_id, c.root_thread_id, ${userId}, c.title, c.turn_index, c.message_count, c.import_content_hash
      from jsonb_to_recordset(${JSON.stringify(conversations)}::jsonb)
        as c(thread_id text, root_thread_id text, title text, turn_index int, message_count int, import_content_hash text)`);
    await tx.execute(sql`
      insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, reason, user_id, status, created_at)
      select b."threadId", b."parentThreadId", b."branchPointTurn", b.reason, b."userId", b.status,
        now() - b.depth * interval '1 millisecond'
      from jsonb_to_recordset(${JSON.stringify(branches)}::jsonb)
        as b("threadId" text, "parentThreadId" text, "branchPointTurn" int, reason text, "userId" text, status text, depth int)`);
    // An import's workspaces start empty: no change to log (its branches inherit nothing, parent_change_seq 0).
    await createEmptyDocuments(tx, conversations.map((c) => c.thread_id));
    // Batches in order, and rows in position order within each: the messages' ids follow the path.
    for (const batch of messageBatches) {
      await slice.yieldIfDue();
      await tx.execute(sql`
        insert into messages (thread_id, turn_index, role, content, tool_calls, compacted_before, created_at)
        select m.thread_id, m.turn_index, m.role, m.content, m.tool_calls, m.compacted_before, coalesce(m.created_at::timestamptz, now())
        from jsonb_to_recordset(${batch}::jsonb)
          as m(position int, thread_id text, turn_index int, role text, content text, tool_calls jsonb, compacted_before boolean,
            created_at text)
        order by m.position`);
    }
    // Snapshots reference the document body by hash, like the turn loop's capture: here always the empty one.
    await tx.execute(sql`
      insert into document_blobs (hash, content)
      values (encode(sha256(convert_to('', 'UTF8')), 'hex'), '') on conflict (hash) do nothing`);
    for (const batch of snapshotBatches) {
      await slice.yieldIfDue();
      await tx.execute(sql`
        insert into workspace_snapshots
          (thread_id, turn_index, objective, document_title, document_hash, preferences, todos, user_message, captured_at)
        select s.thread_id, s.turn_index, null, '', encode(sha256(convert_to('', 'UTF8')), 'hex'), '[]'::jsonb, '[]'::jsonb,
          s.user_message, coalesce(s.captured_at::timestamptz, now())
        from jsonb_to_recordset(${batch}::jsonb)
          as s(thread_id text, turn_index int, user_message text, captured_at text)`);
    }
  });
}

/**
 * The rows as JSON arrays of about BATCH_BYTES each (a row larger than that is a batch of its own),
 * serialized row by row so that the writer can yield between any two rows.
 */
async function jsonBatches(rows: readonly object[], slice: EventLoopSlice): Promise<string[]> {
  const batches: string[] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    await slice.yieldIfDue();
    const json = JSON.stringify(row);
    if (bytes > 0 && bytes + json.length > BATCH_BYTES) {
      batches.push(`[${batch.join(',')}]`);
      batch = [];
      bytes = 0;
    }
    batch.push(json);
    bytes += json.length + 1;
  }
  if (batch.length > 0) batches.push(`[${batch.join(',')}]`);
  return batches;
}

/** Cooperative time slicing: `yieldIfDue()` gives the event loop a turn once `sliceMs` have passed since the last one. */
export class EventLoopSlice {
  private startedAt = performance.now();

  constructor(private readonly sliceMs: number) {}

  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.startedAt < this.sliceMs) return;
    await nextTurnOfTheLoop();
    this.startedAt = performance.now();
  }
}

/**
 * A conversation this user still has from an earlier import of the same content: the oldest root
 * that carries the hash, not deleted, and no longer pending (a failed import left nothing).
 */
export async function findEarlierImport(
  deps: Pick<ServiceDeps, 'db'>,
  userId: string,
  contentHash: string,
): Promise<{ thread_id: string; title: string; imported_at: string } | null> {
  const rows = await deps.db.execute<{ thread_id: string; title: string; imported_at: string }>(sql`
    select c.thread_id, c.title, to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as imported_at
    from conversations c
    left join conversation_branches b on b.thread_id = c.thread_id
    where c.user_id = ${userId} and c.import_content_hash = ${contentHash} and c.deleted_at is null
      and coalesce(b.status, 'active') = 'active'
    order by c.created_at
    limit 1`);
  return rows[0] ?? null;
}

/** thread → its family root; `threads` lists every parent before its children. */
function familyRoots(threads: readonly PlannedThread[]): Map<string, string> {
  const roots = new Map<string, string>();
  for (const t of threads) roots.set(t.threadId, t.parentThreadId === null ? t.threadId : roots.get(t.parentThreadId)!);
  return roots;
}
