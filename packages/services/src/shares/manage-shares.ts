// The owner's side of share links (docs/sharing.md): create, list, change, revoke. Only the
// family's owner manages its links; a link names a path of the family, so the thread's access
// rule is the check.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { AppError, type CreateShare, type Share, type ShareList, type UpdateShare } from '@trellis/domain';
import { shareLinks, type DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { actorUserId, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { hashSecretToken, mintSecretToken } from '../auth/secret-token';
import { shareUrl } from './share-token';

type ShareRow = typeof shareLinks.$inferSelect;

export async function createShare(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: CreateShare & { threadId: string },
): Promise<Share> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'own');
  const latest = conversation.turnIndex;
  const turn = input.turn ?? latest;
  if (turn > latest) throw AppError.validation([{ path: 'turn', message: `must be at most ${latest}, the latest step of this path` }]);
  const token = mintSecretToken();
  const [row] = await deps.db
    .insert(shareLinks)
    .values({
      tokenHash: hashSecretToken(token),
      rootThreadId: conversation.rootThreadId,
      threadId: input.threadId,
      scope: input.scope,
      turn,
      followsLatest: input.follows_latest,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      createdBy: actorUserId(actor),
    })
    .returning();
  return toShare(row!, { url: shareUrl(token), latest });
}

export async function listShares(deps: Pick<ServiceDeps, 'db'>, actor: ThreadActor, input: { threadId: string }): Promise<ShareList> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'own');
  const rows = await deps.db
    .select({ share: shareLinks, latest: sql<number>`c.turn_index` })
    .from(shareLinks)
    .innerJoin(sql`conversations c`, sql`c.thread_id = ${shareLinks.threadId}`)
    .where(and(eq(shareLinks.rootThreadId, conversation.rootThreadId), isNull(shareLinks.revokedAt), liveExpiry()))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  return { shares: rows.map(({ share, latest }) => toShare(share, { url: null, latest: Number(latest) })) };
}

export async function updateShare(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: UpdateShare & { shareId: string },
): Promise<Share> {
  return deps.db.transaction(async (tx) => {
    const row = await ownedShare(tx, actor, input.shareId);
    const { conversation } = await requireThreadAccess(tx, actor, row.threadId, 'own');
    const latest = conversation.turnIndex;
    if (input.turn !== undefined && input.turn > latest) {
      throw AppError.validation([{ path: 'turn', message: `must be at most ${latest}, the latest step of this path` }]);
    }
    const [updated] = await tx
      .update(shareLinks)
      .set({
        ...(input.turn !== undefined ? { turn: input.turn } : {}),
        ...(input.follows_latest !== undefined ? { followsLatest: input.follows_latest } : {}),
        ...(input.expires_at !== undefined ? { expiresAt: input.expires_at === null ? null : new Date(input.expires_at) } : {}),
      })
      .where(eq(shareLinks.id, row.id))
      .returning();
    return toShare(updated!, { url: null, latest });
  });
}

export async function revokeShare(deps: Pick<ServiceDeps, 'db'>, actor: ThreadActor, input: { shareId: string }): Promise<void> {
  const row = await ownedShare(deps.db, actor, input.shareId);
  await deps.db.update(shareLinks).set({ revokedAt: new Date() }).where(eq(shareLinks.id, row.id));
}

/** A live link of the caller's family: unknown, revoked or expired → 404; another owner's → the thread's answer (403). */
async function ownedShare(db: DbOrTx, actor: ThreadActor, shareId: string): Promise<ShareRow> {
  if (!/^[0-9a-f-]{36}$/i.test(shareId)) throw AppError.notFound('Share link');
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, shareId), isNull(shareLinks.revokedAt), liveExpiry()));
  if (!row) throw AppError.notFound('Share link');
  await requireThreadAccess(db, actor, row.threadId, 'own');
  return row;
}

function liveExpiry() {
  return sql`(${shareLinks.expiresAt} is null or ${shareLinks.expiresAt} > now())`;
}

function toShare(row: ShareRow, at: { url: string | null; latest: number }): Share {
  return {
    share_id: row.id,
    url: at.url,
    thread_id: row.threadId,
    scope: row.scope,
    turn: row.followsLatest ? at.latest : row.turn,
    follows_latest: row.followsLatest,
    expires_at: row.expiresAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    view_count: row.viewCount,
    last_viewed_at: row.lastViewedAt?.toISOString() ?? null,
  };
}
