// Publishes committed workspace changes on the family's channel (docs/architecture.md, "Published"). Runs
// inside the writing transaction: PostgreSQL delivers a NOTIFY at commit, and never for a
// transaction that rolls back. Readers fetch the rows; the payload only says where to look.
import { sql } from 'drizzle-orm';
import type { DocumentUpdate } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { FAMILY_CHANNEL, familyEventStatement } from '../live/family-events';

export { FAMILY_CHANNEL };

/**
 * A NOTIFY payload is at most 8,000 bytes: document updates larger than this travel as their version
 * only, and the editors that hear of them read them from the change log.
 */
const MAX_INLINE_UPDATES_BYTES = 6_000;

/**
 * `{"family": <root thread id>, "thread": <thread id>, "seq": <last seq>, "kind": "change", "doc"?}`
 * on `trellis_family`, and the family's `workspace_changed` event (seq, actor and the kinds of item
 * changed) that the live family stream replays by id — every workspace change, the agent's tools'
 * included, announces itself here, in one statement (the event's own NOTIFY first, then the
 * change's). `doc` carries the document versions the write made (`{version, updates}`, the updates
 * left out when large) so every process hands them to its live editors without reading the log.
 */
export async function publishChanges(
  tx: DbOrTx,
  input: {
    threadId: string;
    seqs: readonly number[];
    actor?: string | undefined;
    kinds?: readonly string[] | undefined;
    documentUpdates?: readonly DocumentUpdate[] | undefined;
    /** A family made in this transaction: the event row, no NOTIFY (familyEventStatement's `silent`). */
    silent?: boolean | undefined;
  },
): Promise<void> {
  if (input.seqs.length === 0) return;
  const seq = Math.max(...input.seqs);
  const data = { seq, actor: input.actor ?? null, ...(input.kinds ? { kinds: input.kinds } : {}) };
  const doc = documentPayload(input.documentUpdates ?? []);
  await tx.execute(
    familyEventStatement(
      { threadId: input.threadId, kind: 'workspace_changed', data },
      {
        alsoNotify: sql`json_build_object('family', family_id, 'thread', ${input.threadId}::text, 'seq', ${seq}::int, 'kind', 'change', 'doc', ${doc}::json)::text`,
        silent: input.silent,
      },
    ),
  );
}

function documentPayload(updates: readonly DocumentUpdate[]): string | null {
  const last = updates.at(-1);
  if (!last) return null;
  const full = JSON.stringify({ version: last.version, updates });
  return new TextEncoder().encode(full).length <= MAX_INLINE_UPDATES_BYTES
    ? full
    : JSON.stringify({ version: last.version });
}
