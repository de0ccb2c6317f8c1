import { sql, type SQL } from 'drizzle-orm';
import { previewText } from '@trellis/domain';

/**
 * The capture of snapshot k from the live rows, as the CTEs `captured`, `doc`, `blob` and
 * `snapshot` of the statement that follows (every turn and every apply opens with it;
 * docs/architecture.md, "The two stores and their clock"). k is the thread's `turn_index` as the
 * statement sees it, so the caller has already advanced it in the same transaction. The body goes to
 * document_blobs under its sha-256, computed inside Postgres, so an unchanged document adds no
 * bytes to a snapshot. `captured` is the conversation row (thread_id, turn_index) the snapshot was
 * taken of; with `leaseOwner`, only while that owner holds the thread's lease — otherwise nothing is
 * captured or written (a turn whose lease update found the thread busy, in the same pipeline).
 */
export function snapshotCaptureCtes(threadId: string, openingText: string, options: { leaseOwner?: string } = {}): SQL {
  const held = options.leaseOwner === undefined ? sql`` : sql` and c.lease_owner = ${options.leaseOwner}`;
  return sql`
      captured as (
        select c.thread_id, c.turn_index, c.objective from conversations c where c.thread_id = ${threadId}${held}
      ),
      doc as (
        select d.title, d.content, encode(sha256(convert_to(d.content, 'UTF8')), 'hex') as hash
        from documents d join captured c on c.thread_id = d.thread_id
      ),
      blob as (
        insert into document_blobs (hash, content) select hash, content from doc on conflict (hash) do nothing
      ),
      snapshot as (
        insert into workspace_snapshots
          (thread_id, turn_index, objective, document_title, document_hash, preferences, todos, user_message)
        select c.thread_id, c.turn_index, c.objective, coalesce(doc.title, ''), doc.hash,
          coalesce((select jsonb_agg(jsonb_build_object('key', p.key, 'text', p.text, 'locked', p.locked) order by p.position, p.id)
            from preferences p where p.thread_id = c.thread_id), '[]'::jsonb),
          coalesce((select jsonb_agg(jsonb_build_object('key', t.key, 'text', t.text, 'done', t.done, 'depth', t.depth)
            order by t.position, t.id) from todos t where t.thread_id = c.thread_id), '[]'::jsonb),
          ${previewText(openingText)}
        from captured c left join doc on true
      )`;
}
