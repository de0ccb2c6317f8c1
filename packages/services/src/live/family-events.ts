// The family channel's write side (docs/architecture.md, "A live family"): one row in
// `family_events` and one NOTIFY on `trellis_family`, in the caller's transaction, so a listener
// hears of the event only once it is committed and can always read what the payload names.
import { sql, type SQL } from 'drizzle-orm';
import type { FamilyEvent, FamilyEventKind } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';

/** The one NOTIFY channel of every family (the write path's change rows use it too). */
export const FAMILY_CHANNEL = 'trellis_family';

export interface FamilyEventInput {
  threadId: string;
  kind: FamilyEventKind;
  /** The event's data: a value, or a jsonb expression over the thread's row `c` (read in the same statement). */
  data?: Record<string, unknown> | SQL;
}

export interface FamilyEventOptions {
  /** Write nothing unless this condition (on the thread's row `c`) holds. */
  onlyIf?: SQL | undefined;
  /** A second payload (a text expression over the event's `family_id`) notified right after the event's own. */
  alsoNotify?: SQL | undefined;
  /**
   * The row without any NOTIFY: for a family made in this same transaction, which nobody can be
   * listening to before it commits (a tab opening it later reads its state, and the row stays for the
   * stream's catch-up). PostgreSQL commits notifying transactions one at a time, so a crowd making
   * families at once (a study's joins) would otherwise wait for each other's commits.
   */
  silent?: boolean | undefined;
  /**
   * The caller's own writes, as named CTEs ending in a comma, run first in the same statement (one
   * round trip): `data`, `alsoNotify` and `returning` may read what they return.
   */
  writes?: SQL | undefined;
  /** Columns the statement answers beside the event's id (expressions over `writes`). */
  returning?: SQL | undefined;
}

/**
 * The statement that appends one event: it takes the family's advisory lock until commit before the
 * id is drawn, so within a family ids grow in commit order (`id > Last-Event-ID` never skips a row
 * that committed late), then notifies `{family, thread, event, kind, turn}` (`turn`: the data's
 * `turn_index`, or null). `onlyIf` makes it write nothing unless the condition holds — a pipelined
 * turn opening adds it only when its lease was taken; `alsoNotify` sends a payload of the caller's in
 * the same round trip (the write path's `change`). A study participant's family also moves the
 * participant's `activity_version` (the dashboard's sign that their row changed), under the same lock.
 * Returns the event id (no row when nothing was written).
 */
export function familyEventStatement(input: FamilyEventInput, { onlyIf, alsoNotify, silent = false, writes, returning }: FamilyEventOptions = {}): SQL {
  const data = isSql(input.data) ? input.data : sql`${JSON.stringify(input.data ?? {})}::jsonb`;
  return sql`
    with ${writes ?? sql``} family as (
      select c.root_thread_id as family_id, ${data} as data from conversations c
      where c.thread_id = ${input.threadId}${onlyIf ? sql` and ${onlyIf}` : sql``}
    ),
    locked as (select pg_advisory_xact_lock(hashtextextended(family_id, 0)) from family),
    event as (
      insert into family_events (family_id, thread_id, kind, data)
      select family_id, ${input.threadId}, ${input.kind}, family.data from family, locked
      returning id, family_id, data
    ),
    participant as (
      update study_participants set activity_version = activity_version + 1
      where thread_id in (select family_id from event)
    )
    select id::text as id${returning ? sql`, ${returning}` : sql``}${silent ? sql`` : sql`,
      pg_notify(${FAMILY_CHANNEL}, json_build_object('family', family_id, 'thread', ${input.threadId}::text,
        'event', id, 'kind', ${input.kind}::text, 'turn', data -> 'turn_index')::text) as notified`}
      ${alsoNotify && !silent ? sql`, pg_notify(${FAMILY_CHANNEL}, ${alsoNotify}) as also_notified` : sql``}
    from event`;
}

function isSql(value: unknown): value is SQL {
  return typeof value === 'object' && value !== null && 'queryChunks' in value;
}

/** Appends one family event in `tx` (or as its own statement on a `Db`); returns its id. */
export async function appendFamilyEvent(tx: DbOrTx, input: FamilyEventInput): Promise<number | null> {
  const rows = await tx.execute<{ id: string }>(familyEventStatement(input));
  const row = rows[0];
  return row ? Number(row.id) : null;
}

interface EventRow extends Record<string, unknown> {
  id: string;
  family_id: string;
  thread_id: string;
  kind: FamilyEventKind;
  data: Record<string, unknown>;
  created_at: Date | string;
}

/** The family's events after `afterId`, oldest first, at most `limit`. */
export async function readFamilyEvents(db: DbOrTx, familyId: string, afterId: number, limit = 500): Promise<FamilyEvent[]> {
  const rows = await db.execute<EventRow>(sql`
    select id::text as id, family_id, thread_id, kind, data, created_at from family_events
    where family_id = ${familyId} and family_events.id > ${afterId} order by family_events.id limit ${limit}`);
  return rows.map((r) => ({
    id: Number(r.id),
    family_id: r.family_id,
    thread_id: r.thread_id,
    kind: r.kind,
    data: r.data,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** The newest event id of a family (0 when it has none). */
export async function lastFamilyEventId(db: DbOrTx, familyId: string): Promise<number> {
  const [row] = await db.execute<{ id: string }>(
    sql`select coalesce(max(id), 0)::text as id from family_events where family_id = ${familyId}`,
  );
  return Number(row?.id ?? 0);
}

/** How many events of a family follow `afterId`, counting no further than `upTo` (an index range, however far behind). */
export async function countFamilyEventsAfter(db: DbOrTx, familyId: string, afterId: number, upTo: number): Promise<number> {
  const [row] = await db.execute<{ n: string }>(sql`
    select count(*)::text as n from (
      select 1 from family_events where family_id = ${familyId} and id > ${afterId} order by id limit ${upTo}
    ) behind`);
  return Number(row?.n ?? 0);
}
