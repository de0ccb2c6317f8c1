import { sql } from 'drizzle-orm';
import { AppError, type DocumentConflictDetails, type DocumentUpdates } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readDocumentUpdates } from './read-document-updates';

/**
 * The document's updates after `since`, for a live editor that missed some (a reconnect, or updates
 * too large to travel on the channel). Read in one snapshot so the versions and the text agree.
 */
export async function pullDocumentUpdates(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; since: number },
): Promise<DocumentUpdates> {
  return deps.db.transaction(
    async (tx) => {
      await requireThreadAccess(tx, actor, input.threadId, 'read');
      const [row] = await tx.execute<{ title: string; content: string; version: number }>(
        sql`select title, content, version from documents where thread_id = ${input.threadId}`,
      );
      const current = {
        title: row?.title ?? '',
        content: row?.content ?? '',
        version: Number(row?.version ?? 0),
      };
      if (input.since > current.version) {
        throw AppError.validation(
          [{ path: 'since', message: `is newer than the document (version ${current.version})` }],
          'The version does not exist yet',
        );
      }
      const updates = await readDocumentUpdates(tx, input.threadId, current, input.since);
      if (!updates) {
        throw new AppError(
          'conflict',
          'The document’s history since this version is not in the change log: reload it',
          {
            details: { document: current } satisfies DocumentConflictDetails,
          },
        );
      }
      return { version: current.version, updates };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
