// `GET /api/conversations/{id}/replay?seq=n`: the workspace right after change n of a path,
// with the change, its step and what it did. Read only: a replay never writes. The workspace is the
// snapshot that opens the change's step (snapshot t: before the agent acts on turn t; every change of
// step t comes after it) folded with the step's changes up to n (`foldChanges`), so a read costs the
// changes of one step, whatever the length of the path.
import { sql } from 'drizzle-orm';
import {
  AppError,
  EMPTY_WORKSPACE,
  changeDiff,
  computeThreadSuffixes,
  foldChanges,
  ownerOfTurn,
  stepLabel,
  type Change,
  type Replay,
} from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { assertAccessReading, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads } from '../graph/family-rows';
import { lineageFacts, loadPathLineage } from '../lineage/load-lineage';
import { isoTimestamp } from '../workspace/iso-timestamp';
import { readSnapshotWithMessage } from '../workspace/snapshot-state';
import { pathSegments, type PathSegment } from '../changes/path-log';

type ChangeRow = Omit<Change, 'seq' | 'thread_seq'> & { path_seq: number; thread_seq: number } & Record<
    string,
    unknown
  >;

export async function replayChange(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: {
    threadId: string;
    seq: number;
    /** Only the changes of steps up to this one exist for the caller (a link pinned at a step). */
    throughTurn?: number;
  },
): Promise<Replay> {
  const lineage = await loadPathLineage(deps.db, input.threadId);
  const displayed = lineage.at(-1);
  await assertAccessReading(deps.db, displayed && lineageFacts(displayed), actor, 'read');
  // The family's threads only name the step ("3b"); loaded beside the path's rows.
  const family = loadFamilyThreads(deps.db, input.threadId);
  family.catch(() => undefined);
  const segments = pathSegments(lineage);
  const total = await countPathChanges(deps.db, segments, input.throughTurn);
  if (input.seq > total) {
    throw AppError.validation([
      { path: 'seq', message: `must be between 1 and ${total}, the changes of this path` },
    ]);
  }
  const segment = segments.find(
    (s) => input.seq > s.offset && (s.cut === null || input.seq <= s.offset + s.cut),
  )!;
  const [target] = await readChanges(deps.db, [segment], sql`w.seq = ${input.seq - segment.offset}`);
  if (!target) throw AppError.notFound(`Change ${input.seq} of this path`);
  const turn = target.turn;
  const snapshotThread = ownerOfTurn(lineage, turn);
  const [opening, stepChanges, { threads, labelTurns }] = await Promise.all([
    readSnapshotWithMessage(deps.db, snapshotThread, turn),
    readChanges(
      deps.db,
      segments.filter((s) => s.offset < input.seq),
      sql`w.turn = ${turn} and w.seq <= ${input.seq} - s."offset"`,
    ),
    family,
  ]);
  const before = foldChanges(opening?.state ?? EMPTY_WORKSPACE, stepChanges.slice(0, -1));
  const suffixes = computeThreadSuffixes({ threads, nodes: labelTurns });
  return {
    seq: input.seq,
    total,
    step: {
      turn,
      thread_id: snapshotThread,
      label: stepLabel(turn, suffixes[snapshotThread] ?? ''),
      message: opening?.message ?? null,
    },
    change: target,
    diff: changeDiff(before, target),
    workspace: foldChanges(before, [target]),
  };
}

/**
 * The path's last `seq`: the cuts above the displayed thread plus its own last change (seqs are
 * gapless). Through a step: the changes of steps up to it, which are a prefix of the path's (a
 * step's changes come after every earlier step's).
 */
async function countPathChanges(db: DbOrTx, segments: readonly PathSegment[], throughTurn?: number): Promise<number> {
  if (throughTurn !== undefined) {
    const [row] = await db.execute<{ count: number }>(sql`
      select count(*)::int as count
      from jsonb_to_recordset(${JSON.stringify(segments.map((s) => ({ thread_id: s.threadId, cutoff: s.cut })))}::jsonb)
        as s(thread_id text, cutoff int)
      join workspace_changes w on w.thread_id = s.thread_id and (s.cutoff is null or w.seq <= s.cutoff)
      where w.turn <= ${throughTurn}`);
    return Number(row?.count ?? 0);
  }
  const own = segments.at(-1)!;
  const [row] = await db.execute<{ last: number | null }>(
    sql`select max(seq) as last from workspace_changes where thread_id = ${own.threadId}`,
  );
  return own.offset + Number(row?.last ?? 0);
}

/** The path's changes in `segments` that hold `where` (over `w` and the segment `s`), oldest first. */
async function readChanges(
  db: DbOrTx,
  segments: readonly PathSegment[],
  where: ReturnType<typeof sql>,
): Promise<Change[]> {
  if (segments.length === 0) return [];
  const rows = await db.execute<ChangeRow>(sql`
    select s."offset" + w.seq as path_seq, w.thread_id, w.seq as thread_seq, w.turn, w.actor, w.actor_id, w.via,
      w.via_source, w.kind, w.key, w.op, w.before, w.after, w.reverted, ${isoTimestamp(sql`w.created_at`)} as created_at
    from jsonb_to_recordset(${JSON.stringify(segments.map((s) => ({ thread_id: s.threadId, offset: s.offset, cutoff: s.cut })))}::jsonb)
      as s(thread_id text, "offset" int, cutoff int)
    join workspace_changes w on w.thread_id = s.thread_id and (s.cutoff is null or w.seq <= s.cutoff)
    where ${where}
    order by path_seq`);
  return rows.map(({ path_seq, thread_seq, ...row }) => ({
    seq: Number(path_seq),
    thread_id: row.thread_id,
    thread_seq: Number(thread_seq),
    turn: row.turn,
    actor: row.actor,
    actor_id: row.actor_id,
    via: row.via,
    via_source: row.via_source,
    kind: row.kind,
    key: row.key,
    op: row.op,
    before: row.before,
    after: row.after,
    reverted: row.reverted,
    created_at: row.created_at,
  }));
}
