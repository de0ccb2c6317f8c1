// Who has a family open (docs/architecture.md, "Presence"): one row per open tab in `presence`,
// refreshed by the tab's heartbeats. A heartbeat that changes what others see (a new tab, another
// path or step, typing started or stopped, a tab back after the window) notifies the family channel
// in the same statement; one that only says "still here" writes the time and nothing else.
import { sql } from 'drizzle-orm';
import type { Presence, PresenceEntry } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { FAMILY_CHANNEL } from '../live/family-events';

/** A tab not heard from for this long has left (its heartbeats come every 10 s). */
export const PRESENCE_WINDOW_SECONDS = 20;

export interface Heartbeat {
  threadId: string;
  clientId: string;
  userId: string;
  turnIndex: number | null;
  isTyping: boolean;
}

/**
 * Records the tab's heartbeat; returns the family id and whether others were told (a change). Rows
 * of the family gone for an hour are pruned on the way.
 */
export async function recordHeartbeat(
  db: DbOrTx,
  beat: Heartbeat,
  windowSeconds = PRESENCE_WINDOW_SECONDS,
): Promise<{ familyId: string; isChanged: boolean } | null> {
  const [row] = await db.execute<{ family_id: string; is_changed: boolean }>(sql`
    with family as (select root_thread_id as family_id from conversations where thread_id = ${beat.threadId}),
    prev as (
      select p.* from presence p, family
      where p.family_id = family.family_id and p.client_id = ${beat.clientId}
        and p.seen_at > now() - make_interval(secs => ${windowSeconds})
    ),
    pruned as (
      delete from presence p using family
      where p.family_id = family.family_id and p.client_id <> ${beat.clientId} and p.seen_at < now() - interval '1 hour'
    ),
    saved as (
      insert into presence (family_id, client_id, user_id, thread_id, turn_index, is_typing, seen_at)
      select family_id, ${beat.clientId}, ${beat.userId}, ${beat.threadId}, ${beat.turnIndex}, ${beat.isTyping}, now() from family
      on conflict (family_id, client_id) do update
        set thread_id = excluded.thread_id, turn_index = excluded.turn_index, is_typing = excluded.is_typing, seen_at = excluded.seen_at
        where presence.user_id = excluded.user_id
      returning family_id
    ),
    changed as (
      select saved.family_id, not exists (
        select 1 from prev
        where prev.thread_id = ${beat.threadId} and prev.turn_index is not distinct from ${beat.turnIndex}::int
          and prev.is_typing = ${beat.isTyping}
      ) as is_changed
      from saved
    )
    select family_id, is_changed,
      case when is_changed then pg_notify(${FAMILY_CHANNEL}, json_build_object('family', family_id, 'thread', ${beat.threadId}::text, 'kind', 'presence')::text) end
    from changed`);
  return row ? { familyId: row.family_id, isChanged: row.is_changed } : null;
}

/** The tab says it leaves (its page is closing): its row goes, and the family hears of it. */
export async function removePresence(
  db: DbOrTx,
  input: { threadId: string; clientId: string; userId: string },
): Promise<void> {
  await db.execute(sql`
    with gone as (
      delete from presence p using conversations c
      where c.thread_id = ${input.threadId} and p.family_id = c.root_thread_id
        and p.client_id = ${input.clientId} and p.user_id = ${input.userId}
      returning p.family_id
    )
    select pg_notify(${FAMILY_CHANNEL}, json_build_object('family', family_id, 'thread', ${input.threadId}::text, 'kind', 'presence')::text)
    from gone`);
}

/** A tab's row, or only the read's time (`client_id` null) when nobody is here. */
interface PresenceRow extends Record<string, unknown> {
  client_id: string | null;
  user_id: string;
  name: string;
  thread_id: string;
  turn_index: number | null;
  is_typing: boolean;
  seen_at: Date | string;
  as_of: string;
}

function isTab(row: PresenceRow): row is PresenceRow & { client_id: string } {
  return row.client_id !== null;
}

/** Everyone heard from within the window, by name then tab (a stable order: watchers compare lists). */
export async function readPresence(
  db: DbOrTx,
  familyId: string,
  windowSeconds = PRESENCE_WINDOW_SECONDS,
): Promise<Presence> {
  const rows = await db.execute<PresenceRow>(sql`
    with read as (select to_char(statement_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as as_of)
    select p.client_id, p.user_id, coalesce(nullif(u.name, ''), u.email) as name, p.thread_id, p.turn_index, p.is_typing, p.seen_at, read.as_of
    from read left join (presence p join "user" u on u.id = p.user_id)
      on p.family_id = ${familyId} and p.seen_at > now() - make_interval(secs => ${windowSeconds})
    order by name, p.user_id, p.client_id`);
  const people: PresenceEntry[] = rows.filter(isTab).map((r) => ({
    client_id: r.client_id,
    user_id: r.user_id,
    name: r.name,
    thread_id: r.thread_id,
    turn_index: r.turn_index === null ? null : Number(r.turn_index),
    is_typing: r.is_typing,
    last_seen_at: new Date(r.seen_at).toISOString(),
  }));
  return { family_id: familyId, people, as_of: rows[0]!.as_of };
}

/** What a watcher compares to decide whether others must hear again (the times left out). */
export function presenceKey(presence: Presence): string {
  return JSON.stringify(presence.people.map(({ last_seen_at: _seen, ...rest }) => rest));
}
