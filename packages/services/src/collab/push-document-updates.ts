import type { DocumentUpdates, PushDocumentUpdates } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeDocumentUpdatesAtOnce, writeWorkspace } from '../workspace/write-workspace';

/**
 * A live editor sends its unconfirmed updates (docs/architecture.md, "Two people in one document").
 * They go through the one write path, ordered by the document's version with every other writer's;
 * the answer is every update after the version the editor sent them on — others' first where they
 * came first, then its own as accepted — which the editor takes as it takes any it receives.
 * Updates on the current version whose editor says its text's length are taken in one statement
 * (write/document-updates-at-once.ts); anything else, or anything that path declines, in the
 * write path's transaction.
 */
export async function pushDocumentUpdates(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; push: PushDocumentUpdates },
): Promise<DocumentUpdates> {
  const { push } = input;
  if (push.length !== undefined) {
    const taken = await writeDocumentUpdatesAtOnce(deps.db, {
      threadId: input.threadId,
      author: editorAuthor(actor),
      actor,
      baseVersion: push.version,
      length: push.length,
      clientId: push.client_id,
      patches: push.updates.map((u) => u.patch),
    });
    if (taken) return taken;
  }
  const { outcomes } = await writeWorkspace(
    { db: deps.db, actor },
    {
      threadId: input.threadId,
      author: editorAuthor(actor),
      edits: [
        {
          kind: 'document_updates',
          baseVersion: push.version,
          clientId: push.client_id,
          patches: push.updates.map((u) => u.patch),
        },
      ] as const,
    },
  );
  const [document] = outcomes;
  return { version: document.version, updates: document.updates };
}
