// Publishes committed workspace changes on the family's channel (docs/architecture.md, "Published"). Runs
// inside the writing transaction: PostgreSQL delivers a NOTIFY at commit, and never for a
// transaction that rolls back. Readers fetch the rows; the payload only says where to look.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@trellis/db';
import { FAMILY_CHANNEL, familyEventStatement } from '../live/family-events';

export { FAMILY_CHANNEL };

/**
 * `{"family": <root thread id>, "thread": <thread id>, "seq": <last seq>, "kind": "change"}` on
 * `trellis_family`, and the family's `workspace_changed` event (seq and actor) that the live family
 * stream replays by id — every workspace change, the agent's tools' included, announces itself here,
 * in one statement (the event's own NOTIFY first, then the change's).
 */
export async function publishChanges(
  tx: DbOrTx,
  input: { threadId: string; seqs: readonly number[]; actor?: string | undefined },
): Promise<void> {
  if (input.seqs.length === 0) return;
  const seq = Math.max(...input.seqs);
  await tx.execute(
    familyEventStatement(
      { threadId: input.threadId, kind: 'workspace_changed', data: { seq, actor: input.actor ?? null } },
      { alsoNotify: sql`json_build_object('family', family_id, 'thread', ${input.threadId}::text, 'seq', ${seq}::int, 'kind', 'change')::text` },
    ),
  );
}
