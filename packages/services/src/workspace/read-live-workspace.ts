import { sql, type SQL } from 'drizzle-orm';
import { AppError, isThreadId, type FamilyRole, type LiveWorkspace } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { assertAccess, memberRoleSql, type ThreadActor } from '../conversations/conversation-access';
import { isoTimestamp } from './iso-timestamp';

/**
 * The live workspace of a thread in one query: the rows the agent's tools and
 * the person's edits change, and what the next turn's snapshot will capture.
 */
export async function readLiveWorkspace(
  db: DbOrTx,
  threadId: string,
  options: LiveWorkspaceOptions = {},
): Promise<LiveWorkspace> {
  const [row] = await db.execute<LiveRow>(liveWorkspaceStatement(threadId, options));
  if (!row) throw AppError.notFound('Conversation');
  return workspaceOf(row);
}

/**
 * What a read may leave out (as ''): `artifactContent: false` the artifact bodies (the agent's view
 * lists artifacts by title only), `documentContent: false` the document's text (for a reader that
 * takes it in pieces, see read-document-pieces).
 */
export interface LiveWorkspaceOptions {
  artifactContent?: boolean;
  documentContent?: boolean;
}

/** The statement {@link readLiveWorkspace} runs, for a caller that sends it with others; its row goes to {@link workspaceOf}. */
export function liveWorkspaceStatement(threadId: string, options: LiveWorkspaceOptions = {}): SQL {
  return liveWorkspaceQuery(threadId, options, sql``);
}

/**
 * The caller's live workspace, or 404/403 (conversation-access's rule), in ONE
 * query: the ownership columns ride along with the workspace (a first read of a
 * thread waits for one round trip here, not two).
 */
export async function readOwnedLiveWorkspace(db: DbOrTx, actor: ThreadActor, threadId: string): Promise<LiveWorkspace> {
  if (!isThreadId(threadId)) throw AppError.notFound('Conversation');
  const [row] = await db.execute<LiveRow & { user_id: string; is_deleted: boolean; is_pending: boolean; member_role: FamilyRole | null }>(
    liveWorkspaceQuery(
      threadId,
      {},
      sql`, c.user_id, c.deleted_at is not null as is_deleted,
        exists (select 1 from conversation_branches b where b.thread_id = c.thread_id and b.status = 'pending') as is_pending,
        ${memberRoleSql(actor, sql`c.root_thread_id`)} as member_role`,
    ),
  );
  assertAccess(row && { userId: row.user_id, isDeleted: row.is_deleted, isPending: row.is_pending, memberRole: row.member_role }, actor, 'read');
  return workspaceOf(row!);
}

export type LiveRow = {
  objective: string | null;
  title: string;
  content: string;
  version: number;
  preferences: LiveWorkspace['preferences'];
  todos: LiveWorkspace['todos'];
  artifacts: LiveWorkspace['artifacts'];
};

function liveWorkspaceQuery(threadId: string, options: LiveWorkspaceOptions, extraColumns: SQL) {
  const documentContent = options.documentContent === false ? sql`''` : sql`coalesce(d.content, '')`;
  const artifactContent = options.artifactContent === false ? sql`''` : sql`a.content`;
  return sql`
    select c.objective,
      coalesce(d.title, '') as title,
      ${documentContent} as content,
      coalesce(d.version, 0) as version,
      coalesce((
        select jsonb_agg(jsonb_build_object('id', p.id, 'key', p.key, 'text', p.text, 'locked', p.locked, 'position', p.position, 'version', p.version)
          order by p.position, p.id)
        from preferences p where p.thread_id = c.thread_id), '[]'::jsonb) as preferences,
      coalesce((
        select jsonb_agg(jsonb_build_object('id', t.id, 'key', t.key, 'text', t.text, 'done', t.done, 'depth', t.depth, 'position', t.position, 'version', t.version)
          order by t.position, t.id)
        from todos t where t.thread_id = c.thread_id), '[]'::jsonb) as todos,
      coalesce((
        select jsonb_agg(jsonb_build_object('id', a.id::text, 'key', a.key, 'number', a.number, 'turn_index', a.turn_index, 'kind', a.kind, 'title', a.title,
          'content', ${artifactContent}, 'created_at', ${isoTimestamp(sql`a.created_at`)}) order by a.id)
        from artifacts a where a.thread_id = c.thread_id), '[]'::jsonb) as artifacts
      ${extraColumns}
    from conversations c
    left join documents d on d.thread_id = c.thread_id
    where c.thread_id = ${threadId}`;
}

export function workspaceOf(row: LiveRow): LiveWorkspace {
  return {
    objective: row.objective,
    document: { title: row.title, content: row.content, version: row.version },
    preferences: row.preferences,
    todos: row.todos,
    artifacts: row.artifacts,
  };
}
