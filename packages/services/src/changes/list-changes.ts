// `GET /api/conversations/{id}/changes`: the change log of a path, oldest first. A path's
// log is its root's changes up to the first branch's cut (`parent_change_seq`), then that branch's
// up to the next cut, …, then the thread's own. Seqs are gapless per thread, so each segment holds
// exactly seqs 1..cut and a change's path-wide `seq` is the sum of the cuts above its thread plus its
// own seq: gapless from 1 along the path and fixed forever (a cut never moves). `after_seq` pages by it.
import { sql } from 'drizzle-orm';
import type { Change, ChangesPage } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { assertAccessReading, type ThreadActor } from '../conversations/conversation-access';
import { pathSegments } from './path-log';
import { lineageFacts, loadPathLineage } from '../lineage/load-lineage';
import { isoTimestamp } from '../workspace/iso-timestamp';

export const DEFAULT_CHANGES_PAGE = 100;

export async function listChanges(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; afterSeq?: number | undefined; limit?: number | undefined },
): Promise<ChangesPage> {
  const afterSeq = input.afterSeq ?? 0;
  const limit = input.limit ?? DEFAULT_CHANGES_PAGE;
  const lineage = await loadPathLineage(deps.db, input.threadId);
  const displayed = lineage.at(-1);
  await assertAccessReading(deps.db, displayed && lineageFacts(displayed), actor, 'read');
  const segments = pathSegments(lineage).map((s) => ({ thread_id: s.threadId, offset: s.offset, cutoff: s.cut }));
  // Each segment reads at most limit+1 rows past the cursor through (thread_id, seq); the page is their first limit+1.
  const rows = await deps.db.execute<Omit<Change, 'seq'> & { path_seq: number } & Record<string, unknown>>(sql`
    select s."offset" + w.seq as path_seq, w.thread_id, w.seq as thread_seq, w.turn, w.actor, w.actor_id, w.via, w.via_source,
      w.kind, w.key, w.op, w.before, w.after, w.reverted, w.created_at
    from jsonb_to_recordset(${JSON.stringify(segments)}::jsonb) as s(thread_id text, "offset" int, cutoff int)
    cross join lateral (
      select w.thread_id, w.seq, w.turn, w.actor, w.actor_id, w.via, w.via_source, w.kind, w.key, w.op, w.before, w.after, w.reverted,
        ${isoTimestamp(sql`w.created_at`)} as created_at
      from workspace_changes w
      where w.thread_id = s.thread_id and w.seq > ${afterSeq} - s."offset" and (s.cutoff is null or w.seq <= s.cutoff)
      order by w.seq
      limit ${limit + 1}
    ) w
    order by path_seq
    limit ${limit + 1}`);
  const changes = rows.slice(0, limit).map(
    ({ path_seq, thread_id, thread_seq, turn, actor: who, actor_id, via, via_source, kind, key, op, before, after, reverted, created_at }): Change => ({
      seq: Number(path_seq),
      thread_id,
      thread_seq: Number(thread_seq),
      turn,
      actor: who,
      actor_id,
      via,
      via_source,
      kind,
      key,
      op,
      before,
      after,
      reverted,
      created_at,
    }),
  );
  return { changes, has_more: rows.length > limit };
}
