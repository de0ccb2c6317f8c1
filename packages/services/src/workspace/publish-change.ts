// Publishes committed workspace changes on the family's channel (docs/architecture.md, "Published"). Runs
// inside the writing transaction: PostgreSQL delivers a NOTIFY at commit, and never for a
// transaction that rolls back. Readers fetch the rows; the payload only says where to look.
import { sql, type SQL } from 'drizzle-orm';
import type { DocumentUpdate } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { FAMILY_CHANNEL, familyEventStatement } from '../live/family-events';
import { appendChangesCte } from './write/append-changes';
import type { ChangeAuthor, ChangeDraft } from './write/context';

export { FAMILY_CHANNEL };

/**
 * A NOTIFY payload is at most 8,000 bytes: document updates larger than this travel as their version
 * only, and the editors that hear of them read them from the change log.
 */
const MAX_INLINE_UPDATES_BYTES = 6_000;

/**
 * Appends the write's change rows and announces them, in one statement (one round trip): the rows
 * (appendChangesCte), then on `trellis_family`
 * `{"family": <root thread id>, "thread": <thread id>, "seq": <last seq>, "kind": "change", "doc"?}`
 * and the family's `workspace_changed` event (seq, actor and the kinds of item changed) that the
 * live family stream replays by id — every workspace change, the agent's tools' included, announces
 * itself here (the event's own NOTIFY first, then the change's). `doc` carries the document versions
 * the write made (`{version, updates}`, the updates left out when large) so every process hands them
 * to its live editors without reading the log. Answers the rows' seqs.
 */
export async function appendAndPublishChanges(
  tx: DbOrTx,
  input: ChangesToPublish,
): Promise<number[]> {
  if (input.drafts.length === 0) return [];
  const [row] = await tx.execute<{ seqs: number[] }>(publishChangesStatement(input));
  if (!row) throw new Error(`the change rows of ${input.threadId} were not written`);
  return row.seqs.map(Number);
}

export interface ChangesToPublish {
  threadId: string;
  author: ChangeAuthor;
  drafts: readonly ChangeDraft[];
  documentUpdates?: readonly DocumentUpdate[] | undefined;
  /** A family made in this transaction: the event row, no NOTIFY (familyEventStatement's `silent`). */
  silent?: boolean | undefined;
}

/**
 * {@link appendAndPublishChanges}'s statement, answering `seqs`. `item` is for a statement that
 * writes the item too (the document in one statement, write/document-updates-at-once.ts): its CTEs
 * run first, the rows join `item.join` and merge `item.before` (appendChangesCte's options), and
 * nothing is written or announced when no row is appended (the statement answers no row).
 */
export function publishChangesStatement(input: ChangesToPublish, item?: { writes: SQL; join: SQL; before?: SQL }): SQL {
  const seq = sql`(select max(seq) from changes)::int`;
  const kinds = [...new Set(input.drafts.map((draft) => draft.kind))];
  const doc = documentPayload(input.documentUpdates ?? []);
  const changes = appendChangesCte(input.threadId, input.author, input.drafts, item ? { join: item.join, ...(item.before && { before: item.before }) } : {});
  return familyEventStatement(
    {
      threadId: input.threadId,
      kind: 'workspace_changed',
      data: sql`jsonb_build_object('seq', ${seq}, 'actor', ${input.author.actor}::text, 'kinds', ${JSON.stringify(kinds)}::jsonb)`,
    },
    {
      writes: item ? sql`${item.writes} ${changes}` : changes,
      ...(item && { onlyIf: sql`exists (select 1 from changes)` }),
      returning: sql`(select json_agg(seq order by seq) from changes) as seqs`,
      alsoNotify: sql`json_build_object('family', family_id, 'thread', ${input.threadId}::text, 'seq', ${seq}, 'kind', 'change', 'doc', ${doc}::json)::text`,
      silent: input.silent,
    },
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
