import { sql } from 'drizzle-orm';
import { AppError, type Workspace } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { isoTimestamp } from './iso-timestamp';

/**
 * The live workspace of a thread in one query: the rows the agent's tools and
 * the person's edits change, and what the next turn's snapshot will capture.
 * `artifactContent: false` leaves artifact bodies out (the agent's view lists
 * artifacts by title only).
 */
export async function readLiveWorkspace(
  db: DbOrTx,
  threadId: string,
  options: { artifactContent?: boolean } = {},
): Promise<Workspace> {
  const artifactContent = options.artifactContent === false ? sql`''` : sql`a.content`;
  const [row] = await db.execute<{
    objective: string | null;
    title: string;
    content: string;
    preferences: Workspace['preferences'];
    todos: Workspace['todos'];
    artifacts: Workspace['artifacts'];
  }>(sql`
    select c.objective,
      coalesce(d.title, '') as title,
      coalesce(d.content, '') as content,
      coalesce((
        select jsonb_agg(jsonb_build_object('id', p.id, 'key', p.key, 'text', p.text, 'locked', p.locked, 'position', p.position)
          order by p.position, p.id)
        from preferences p where p.thread_id = c.thread_id), '[]'::jsonb) as preferences,
      coalesce((
        select jsonb_agg(jsonb_build_object('id', t.id, 'key', t.key, 'text', t.text, 'done', t.done, 'depth', t.depth, 'position', t.position)
          order by t.position, t.id)
        from todos t where t.thread_id = c.thread_id), '[]'::jsonb) as todos,
      coalesce((
        select jsonb_agg(jsonb_build_object('id', a.id::text, 'key', a.key, 'turn_index', a.turn_index, 'kind', a.kind, 'title', a.title,
          'content', ${artifactContent}, 'created_at', ${isoTimestamp(sql`a.created_at`)}) order by a.id)
        from artifacts a where a.thread_id = c.thread_id), '[]'::jsonb) as artifacts
    from conversations c
    left join documents d on d.thread_id = c.thread_id
    where c.thread_id = ${threadId}`);
  if (!row) throw AppError.notFound('Conversation');
  return {
    objective: row.objective,
    document: { title: row.title, content: row.content },
    preferences: row.preferences,
    todos: row.todos,
    artifacts: row.artifacts,
  };
}
