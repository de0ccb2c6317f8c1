import { sql } from 'drizzle-orm';
import { AppError, isThreadId, type FamilyRole, type MessageList } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { actorUserId, assertAccess, memberRoleSql, type ThreadActor } from '../conversations/conversation-access';
import { messageColumns, toMessage, type MessageRow } from '../branching/path-messages';
import { leaseIsFree } from '../turns/turn-lease';
import { lineageWalk } from './load-lineage';

export interface ListMessagesInput {
  threadId: string;
  /** Only turns strictly before this one (the page above the one already shown). */
  before_turn?: number | undefined;
  limit_turns: number;
}

type PageRow = {
  thread_user_id: string;
  thread_is_deleted: boolean;
  thread_is_pending: boolean;
  thread_member_role: FamilyRole | null;
  page_from: number;
  thread_running_turn: number | null;
} & (MessageRow | { id: null });

/**
 * The transcript the person sees on a thread: each ancestor's turns up to the
 * branch point of the next thread down, then the thread's own turns (a branch
 * stores only the turns it owns; docs/branching.md, "The prefix rule"). Paged by
 * turns, newest page first.
 *
 * ONE statement whatever the depth or the length: the lineage walk, the page's
 * bounds, each thread's range of turns (`lineageTurnRanges` in domain, in SQL)
 * and the messages in them. Its first row always carries the displayed thread's
 * ownership columns (messages columns null when the page is empty), and no
 * message is read unless the caller owns the thread.
 */
export async function listMessages(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: ListMessagesInput,
): Promise<MessageList> {
  if (!isThreadId(input.threadId)) throw AppError.notFound('Conversation');
  // `least` ignores a null: without `before_turn` the page ends at the tip.
  const beforeTurn = input.before_turn === undefined ? null : input.before_turn - 1;
  const rows = await deps.db.execute<PageRow>(sql`
    ${lineageWalk(input.threadId)},
    page as (
      select d.user_id, d.is_deleted, d.is_pending, ${memberRoleSql(actor, sql`d.root_thread_id`)} as member_role, p.up_to, greatest(1, p.up_to - ${input.limit_turns}::int + 1) as page_from,
        -- a held turn lease: the thread's latest turn is being answered (a send, or a retry of it)
        (select conversations.turn_index from conversations where conversations.thread_id = ${input.threadId} and not ${leaseIsFree}) as running_turn
      from up d cross join lateral (select least(d.turn_index, ${beforeTurn}::int) as up_to) p
      where d.depth = 0
    ),
    ranges as materialized (
      -- a thread owns (its branch point, the branch point of the thread below it]; the displayed one up to its tip
      select u.thread_id,
        greatest(case when u.has_parent then u.branch_point_turn else 0 end + 1, p.page_from) as first_turn,
        least(coalesce(below.branch_point_turn, u.turn_index), p.up_to) as last_turn
      from page p
      cross join up u
      left join up below on below.depth = u.depth - 1
      where (p.user_id = ${actorUserId(actor)} or p.member_role is not null) and not p.is_deleted and not p.is_pending
    )
    select p.user_id as thread_user_id, p.is_deleted as thread_is_deleted, p.is_pending as thread_is_pending,
      p.member_role as thread_member_role, p.page_from, p.running_turn as thread_running_turn, m.*
    from page p
    left join lateral (
      -- one index range scan per thread (messages_thread_turn_idx), never the thread's whole history
      -- (offset 0 keeps the planner from flattening it into a join over every message of the thread)
      select ${messageColumns(sql`m`)}
      from ranges r
      cross join lateral (
        select * from messages m where m.thread_id = r.thread_id and m.turn_index between r.first_turn and r.last_turn offset 0
      ) m
    ) m on true
    order by m.turn_index, m.seq`);
  const head = rows[0];
  assertAccess(
    head && { userId: head.thread_user_id, isDeleted: head.thread_is_deleted, isPending: head.thread_is_pending, memberRole: head.thread_member_role },
    actor,
    'read',
  );
  // toMessage takes the message columns only; the page's own columns beside them stay behind.
  const messages = rows.flatMap((row) => (row.id === null ? [] : [toMessage(row as MessageRow)]));
  const running = head!.thread_running_turn;
  return { messages, has_more: head!.page_from > 1, running_turn: running === null ? null : Number(running) };
}
