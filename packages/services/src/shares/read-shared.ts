// The reader's side of a share link (docs/sharing.md): no account, only the token. A link reads
// as the family's owner would, through the same services, and never further than it names: a path
// link answers only its path up to the shared step (re-keyed and stripped by `path-view` in domain,
// so another path's text, title, label or id cannot be in the answer); a family link answers any
// path of the family. Expired, revoked or deleted → 404, at once.
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  AppError,
  isThreadId,
  pathAuthorship,
  pathChange,
  pathGraph,
  pathMessages,
  pathStepMessage,
  type MessageList,
  type Replay,
  type SharedView,
  type SharedViewQuery,
} from '@trellis/domain';
import { conversationBranches, conversations, shareLinks } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { getAuthorship } from '../authorship/get-authorship';
import { getRestoreView } from '../branching/get-restore-view';
import { getFamilyGraph } from '../graph/get-family-graph';
import { listMessages } from '../lineage/list-messages';
import { replayChange } from '../replay/replay-change';
import { exportDocument } from '../export/export-document';
import type { ExportedFile } from '../export/export-markdown';
import { hashSecretToken, isSecretToken } from '../auth/secret-token';

/** How many steps of transcript a shared view carries; older ones are paged (`…/messages`). */
export const SHARED_VIEW_STEPS = 20;
/** The map of a shared view: the newest steps of the family (the owner's studio draws up to 500). */
const SHARED_GRAPH_NODES = 200;

export interface ResolvedShare {
  id: string;
  scope: 'path' | 'family';
  threadId: string;
  rootThreadId: string;
  title: string;
  /** The step the link shows on its path: the pinned one, or the latest while it follows. */
  turn: number;
  latest: number;
  followsLatest: boolean;
  expiresAt: Date | null;
  /** Reads go through the services as the family's owner would make them. */
  owner: ThreadActor;
}

const GONE = 'This link no longer works';

/** A live link by its token, or 404. */
export async function resolveShare(deps: Pick<ServiceDeps, 'db'>, token: string): Promise<ResolvedShare> {
  if (!isSecretToken(token)) throw AppError.notFound(GONE);
  const [row] = await deps.db
    .select({
      share: shareLinks,
      title: conversations.title,
      latest: conversations.turnIndex,
      owner: conversations.userId,
    })
    .from(shareLinks)
    .innerJoin(conversations, eq(conversations.threadId, shareLinks.threadId))
    .where(
      and(
        eq(shareLinks.tokenHash, hashSecretToken(token)),
        isNull(shareLinks.revokedAt),
        isNull(conversations.deletedAt),
        sql`(${shareLinks.expiresAt} is null or ${shareLinks.expiresAt} > now())`,
      ),
    );
  if (!row) throw AppError.notFound(GONE);
  const { share } = row;
  return {
    id: share.id,
    scope: share.scope,
    threadId: share.threadId,
    rootThreadId: share.rootThreadId,
    title: row.title,
    turn: share.followsLatest ? row.latest : Math.min(share.turn, row.latest),
    latest: row.latest,
    followsLatest: share.followsLatest,
    expiresAt: share.expiresAt,
    owner: { userId: row.owner },
  };
}

/** The path and step a request may read through the link (404 for anything the link does not name). */
async function shownStep(
  deps: Pick<ServiceDeps, 'db'>,
  link: ResolvedShare,
  query: { thread?: string | undefined; turn?: number | undefined },
): Promise<{ threadId: string; turn: number; title: string }> {
  const threadId = query.thread ?? link.threadId;
  if (threadId === link.threadId) {
    const turn = query.turn ?? link.turn;
    if (turn > link.turn) throw AppError.notFound(`Step ${turn} of this link`);
    return { threadId, turn, title: link.title };
  }
  if (link.scope === 'path' || !isThreadId(threadId)) throw AppError.notFound('That path of this link');
  // A family link reads any visible path of its family: not deleted, archived or mid-creation.
  const [row] = await deps.db
    .select({ title: conversations.title, latest: conversations.turnIndex })
    .from(conversations)
    .leftJoin(conversationBranches, eq(conversationBranches.threadId, conversations.threadId))
    .where(
      and(
        eq(conversations.threadId, threadId),
        eq(conversations.rootThreadId, link.rootThreadId),
        isNull(conversations.deletedAt),
        eq(conversations.isArchived, false),
        sql`coalesce(${conversationBranches.status}, 'active') = 'active'`,
      ),
    );
  if (!row) throw AppError.notFound('That path of this link');
  const turn = query.turn ?? row.latest;
  if (turn > row.latest) throw AppError.notFound(`Step ${turn} of this path`);
  return { threadId, turn, title: row.title };
}

export async function getSharedView(
  deps: Pick<ServiceDeps, 'db'>,
  input: SharedViewQuery & { token: string },
): Promise<SharedView> {
  const link = await resolveShare(deps, input.token);
  const shown = await shownStep(deps, link, input);
  const [graph, restore, authorship] = await Promise.all([
    getFamilyGraph(deps, link.owner, { threadId: shown.threadId, maxNodes: SHARED_GRAPH_NODES }),
    getRestoreView(deps, link.owner, {
      threadId: shown.threadId,
      turn: shown.turn,
      messagesFromTurn: Math.max(1, shown.turn - SHARED_VIEW_STEPS + 1),
    }),
    getAuthorship(deps, link.owner, { threadId: shown.threadId, turn: shown.turn }),
  ]);
  // Opening the link counts as a view; paging and replay do not.
  await deps.db
    .update(shareLinks)
    .set({ viewCount: sql`${shareLinks.viewCount} + 1`, lastViewedAt: new Date() })
    .where(eq(shareLinks.id, link.id));
  const isPath = link.scope === 'path';
  const shownGraph = isPath ? pathGraph(graph, shown.threadId, link.turn) : graph;
  return {
    share: {
      scope: link.scope,
      title: link.title,
      turn: link.turn,
      follows_latest: link.followsLatest,
      expires_at: link.expiresAt?.toISOString() ?? null,
    },
    thread_id: shown.threadId,
    turn: shown.turn,
    newer_steps: link.followsLatest ? 0 : link.latest - link.turn,
    title: shown.title,
    messages: isPath ? pathMessages(restore.messages, shown.threadId) : restore.messages,
    has_earlier_steps: restore.messages.length > 0 && restore.messages[0]!.turn_index > 1,
    workspace: restore.workspace,
    graph: shownGraph,
    authorship: isPath ? pathAuthorship(authorship, shownGraph) : authorship,
  };
}

/** Older steps of the shown transcript, a page at a time (newest page first). */
export async function listSharedMessages(
  deps: Pick<ServiceDeps, 'db'>,
  input: SharedViewQuery & { token: string; before_turn?: number | undefined; limit_turns: number },
): Promise<MessageList> {
  const link = await resolveShare(deps, input.token);
  const shown = await shownStep(deps, link, input);
  const beforeTurn = Math.min(input.before_turn ?? shown.turn + 1, shown.turn + 1);
  const page = await listMessages(deps, link.owner, {
    threadId: shown.threadId,
    before_turn: beforeTurn,
    limit_turns: input.limit_turns,
  });
  return link.scope === 'path' ? { messages: pathMessages(page.messages, shown.threadId), has_more: page.has_more } : page;
}

/** One change of the shown path, as replay shows it; a path link replays only up to its step. */
export async function replaySharedChange(
  deps: Pick<ServiceDeps, 'db'>,
  input: { token: string; thread?: string | undefined; seq: number },
): Promise<Replay> {
  const link = await resolveShare(deps, input.token);
  const shown = await shownStep(deps, link, { thread: input.thread });
  const isPath = link.scope === 'path';
  const replay = await replayChange(deps, link.owner, {
    threadId: shown.threadId,
    seq: input.seq,
    ...(isPath ? { throughTurn: link.turn } : {}),
  });
  if (!isPath) return replay;
  return {
    ...replay,
    step: { turn: replay.step.turn, thread_id: shown.threadId, label: replay.step.label, message: pathStepMessage(replay.step.message) },
    change: pathChange(replay.change, shown.threadId),
  };
}

/** The shown step's document as Markdown, for the shared page's download. */
export async function exportSharedDocument(
  deps: Pick<ServiceDeps, 'db'>,
  input: SharedViewQuery & { token: string },
): Promise<ExportedFile> {
  const link = await resolveShare(deps, input.token);
  const shown = await shownStep(deps, link, input);
  return exportDocument(deps, link.owner, { threadId: shown.threadId, format: 'markdown', turn: shown.turn });
}
