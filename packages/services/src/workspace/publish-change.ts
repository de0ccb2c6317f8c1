// Publishes committed workspace changes on the family's channel (issue 23, "Published"). Runs
// inside the writing transaction: PostgreSQL delivers a NOTIFY at commit, and never for a
// transaction that rolls back. Readers fetch the rows; the payload only says where to look.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@trellis/db';
import { FAMILY_CHANNEL, appendFamilyEvent } from '../live/family-events';

export { FAMILY_CHANNEL };

/**
 * `{"family": <root thread id>, "thread": <thread id>, "seq": <last seq>, "kind": "change"}` on
 * `trellis_family`, and the family's `workspace_changed` event (seq and actor) that the live family
 * stream replays by id — every workspace change, the agent's tools' included, announces itself here.
 */
export async function publishChanges(
  tx: DbOrTx,
  input: { threadId: string; seqs: readonly number[]; actor?: string | undefined },
): Promise<void> {
  if (input.seqs.length === 0) return;
  const seq = Math.max(...input.seqs);
  await appendFamilyEvent(tx, { threadId: input.threadId, kind: 'workspace_changed', data: { seq, actor: input.actor ?? null } });
  await tx.execute(sql`
    select pg_notify(${FAMILY_CHANNEL}, json_build_object('family', c.root_thread_id, 'thread', c.thread_id, 'seq', ${seq}::int, 'kind', 'change')::text)
    from conversations c where c.thread_id = ${input.threadId}`);
}
