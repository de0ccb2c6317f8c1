// A document change made on the document's current version, taken in one statement: a live
// editor's updates (the keystroke path of two people in one document, docs/architecture.md "Two
// people in one document") and the agent's document tools on the text its turn knows. The
// transaction path costs six round trips (begin, the access rule and the thread's lock, the document
// read, its write, the change rows with their NOTIFY, commit); this is one, and writes exactly what
// that path writes. It declines — answers null, having written nothing — whenever it cannot be sure,
// and the caller takes the transaction path, which also gives every refusal its message: an editor on
// an older version (its updates need rebasing), a length the document does not have, a text holding
// characters beyond the Basic Multilingual Plane (PostgreSQL counts code points, the editor UTF-16
// units), another writer holding the thread's lock or committing first, or a caller who may not edit.
import { sql, type SQL } from 'drizzle-orm';
import { makeDocPatch, type DocPatch, type DocumentUpdate } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { canSql, type ThreadActor } from '../../conversations/conversation-access';
import { expandBatch } from '../../collab/read-document-updates';
import { publishChangesStatement } from '../publish-change';
import type { ChangeAuthor } from './context';
import { composePatches, type LiveDocument } from './document-mutations';

/** Patches cut into more pieces than this go the transaction path (the statement grows with them). */
const MAX_PIECES = 64;

/** PostgreSQL's errors that mean another writer came first: a lock not available, a seq taken. */
const RACED = new Set(['55P03', '23505']);

export interface DocumentUpdatesAtOnce {
  threadId: string;
  author: ChangeAuthor;
  actor: ThreadActor;
  /** The version the updates were made on, and the length (UTF-16 units) of the text at it. */
  baseVersion: number;
  length: number;
  clientId: string;
  patches: readonly DocPatch[];
}

/** The updates as the transaction path would take them, or null when this path declines. */
export async function writeDocumentUpdatesAtOnce(
  db: Db,
  input: DocumentUpdatesAtOnce,
): Promise<{ version: number; updates: DocumentUpdate[] } | null> {
  const composed = composePatches(input.patches, input.length);
  if (!composed) return null;
  return writePatchAtOnce(db, {
    threadId: input.threadId,
    author: input.author,
    access: canSql(input.actor, 'edit', { owner: sql`c.user_id`, root: sql`c.root_thread_id` }),
    baseVersion: input.baseVersion,
    length: input.length,
    versions: input.patches.length,
    clientId: input.clientId,
    ...composed,
  });
}

/**
 * The agent's document tool (a whole text, an append, a section) on `known`, the document as its
 * turn last saw it, as the transaction path would write it: one change row of one version, with no
 * editor's id; null when this path declines (the text moved on since, it has no document row yet…).
 * The agent writes under its turn's lease, as the transaction path lets it, without the access rule.
 */
export async function writeAgentDocumentAtOnce(
  db: Db,
  input: { threadId: string; author: ChangeAuthor; known: LiveDocument; content: string },
): Promise<LiveDocument | null> {
  const { known, content } = input;
  const patch = makeDocPatch(known.content, content);
  const taken = await writePatchAtOnce(db, {
    threadId: input.threadId,
    author: input.author,
    access: sql`true`,
    baseVersion: known.version,
    length: known.content.length,
    versions: 1,
    clientId: null,
    patch,
    newLength: content.length,
  });
  return taken && { title: known.title, content, version: taken.version };
}

/** `patch` on `baseVersion` (a text of `length`), as `versions` versions of one change row. */
async function writePatchAtOnce(
  db: Db,
  input: {
    threadId: string;
    author: ChangeAuthor;
    /** Who may write: a condition over the conversation row `c`. */
    access: SQL;
    baseVersion: number;
    length: number;
    versions: number;
    clientId: string | null;
    patch: DocPatch;
    newLength: number;
  },
): Promise<{ version: number; updates: DocumentUpdate[] } | null> {
  const pieces = piecesOf(input.patch);
  if (!pieces) return null;
  const { threadId, baseVersion, clientId, patch } = input;
  const version = baseVersion + input.versions;
  const updates = expandBatch({ fromVersion: baseVersion, toVersion: version, clientId, length: input.length, patch, newLength: input.newLength });
  const before =
    pieces.deleted.length > 0
      ? sql`jsonb_build_object('deleted', jsonb_build_array(${sql.join(pieces.deleted, sql`, `)}))`
      : undefined;
  const statement = publishChangesStatement(
    {
      threadId,
      author: input.author,
      drafts: [
        {
          kind: 'document',
          key: null,
          op: 'patch',
          before: { version: baseVersion },
          after: { version, patch, ...(clientId !== null && { client_id: clientId }) },
        },
      ],
      documentUpdates: updates,
    },
    {
      writes: sql`
        at_target as (
          select c.thread_id from conversations c
          left join conversation_branches b on b.thread_id = c.thread_id
          where c.thread_id = ${threadId} and c.deleted_at is null and b.status is distinct from 'pending'
            and ${input.access}
          for no key update of c nowait
        ),
        at_old as (
          select d.content from documents d join at_target t on t.thread_id = d.thread_id
          where d.version = ${baseVersion} and char_length(d.content) = ${input.length}
            and d.content !~ '[\\U00010000-\\U0010FFFF]'
        ),
        at_doc as (
          update documents d set content = ${sql.join(pieces.content, sql` || `)}, version = ${version}, updated_at = now()
          from at_old o where d.thread_id = ${threadId} and d.version = ${baseVersion}
          returning d.version
        ),`,
      join: sql`at_doc cross join at_old o`,
      ...(before && { before }),
    },
  );
  try {
    const [row] = await db.execute<{ seqs: number[] | null }>(statement);
    return row?.seqs?.length ? { version, updates } : null;
  } catch (error) {
    if (RACED.has(postgresCode(error) ?? '')) return null;
    throw error;
  }
}

/**
 * The new text as pieces over the old one (`o.content`): the kept runs and the inserted texts, in
 * order; and the deleted runs, as the change row stores them. Positions are 1-based code points,
 * which are UTF-16 units in a text of the Basic Multilingual Plane only (the statement checks it).
 */
function piecesOf(patch: DocPatch): { content: SQL[]; deleted: SQL[] } | null {
  const content: SQL[] = [];
  const deleted: SQL[] = [];
  let at = 0;
  let kept = 0;
  const keep = () => {
    if (at > kept) content.push(sql`substr(o.content, ${kept + 1}::int, ${at - kept}::int)`);
    kept = at;
  };
  for (const op of patch) {
    if ('r' in op) at += op.r;
    else if ('d' in op) {
      keep();
      deleted.push(sql`substr(o.content, ${at + 1}::int, ${op.d}::int)`);
      at += op.d;
      kept = at;
    } else {
      keep();
      content.push(sql`${op.i}::text`);
    }
    if (content.length + deleted.length > MAX_PIECES) return null;
  }
  content.push(sql`substr(o.content, ${kept + 1}::int)`);
  return { content, deleted };
}

function postgresCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
