// Authorship of a path's document (issue 23, item 3): the live document, or the document after step
// k. Computed from the change log and cached per document change: a read starts from the newest cached
// state on its path (a branch finds its parent's) and advances over the changes after it only, so its
// cost follows the changes since the last read, never the number of earlier edits.
import { sql } from 'drizzle-orm';
import {
  AppError,
  advanceAuthorship,
  computeThreadSuffixes,
  ownerOfTurn,
  stepLabel,
  summarizeAuthorship,
  type Authorship,
  type AuthorshipSpan,
  type AuthorshipState,
  type AuthorshipSummary,
  type DocumentBodyAfter,
  type DocumentBodyChange,
  EMPTY_AUTHORSHIP,
} from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads } from '../graph/family-rows';
import { loadPathLineage } from '../lineage/load-lineage';
import { onPath, pathOrder, pathSegments, type PathSegment } from '../changes/path-log';
import { readSpanChanges } from './span-changes';

interface CachedState {
  position: { index: number; seq: number };
  state: AuthorshipState;
  summary: AuthorshipSummary;
}

export async function getAuthorship(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; turn?: number | undefined; changesAfter?: number | undefined },
): Promise<Authorship> {
  // The family's thread rows only name the steps (as in the compare): loaded beside the path's rows.
  const family = loadFamilyThreads(deps.db, input.threadId);
  family.catch(() => undefined);
  const [{ conversation }, lineage] = await Promise.all([
    requireThreadAccess(deps.db, actor, input.threadId, 'read'),
    loadPathLineage(deps.db, input.threadId),
  ]);
  if (input.turn !== undefined && input.turn > conversation.turnIndex) {
    throw AppError.notFound(`Step ${input.turn} of this path`);
  }
  const segments = pathSegments(lineage);
  const { state, summary } = await readAuthorship(deps.db, segments, input.turn ?? null);
  const [{ threads, labelTurns }, changes] = await Promise.all([
    family,
    readSpanChanges(deps.db, segments, state.spans, input.changesAfter ?? 0),
  ]);
  const suffixes = computeThreadSuffixes({ threads, nodes: labelTurns });
  const turns = [
    ...new Set(state.spans.filter((s) => s.via !== 'apply' && s.turn !== null).map((s) => s.turn as number)),
  ];
  const steps = turns
    .sort((a, b) => a - b)
    .map((turn) => ({ turn, label: stepLabel(turn, suffixes[ownerOfTurn(lineage, turn)] ?? '') }));
  return { version: state.version, spans: state.spans, steps, summary, changes };
}

/** The spans after the path's last document change with `turn <= throughTurn` (null: the last one). */
export async function readAuthorship(
  db: DbOrTx,
  segments: readonly PathSegment[],
  throughTurn: number | null,
): Promise<{ state: AuthorshipState; summary: AuthorshipSummary }> {
  const cached = await readNewestCached(db, segments, throughTurn);
  const changes = await readDocumentChanges(db, segments, cached?.position ?? null, throughTurn);
  const last = changes.at(-1);
  if (!last) {
    return cached ?? { state: EMPTY_AUTHORSHIP, summary: summarizeAuthorship('', []) };
  }
  const state = advanceAuthorship(cached?.state ?? EMPTY_AUTHORSHIP, changes);
  const summary = summarizeAuthorship(state.text, state.spans);
  // Keyed by the change it follows, a state is the same on every path that holds that change.
  await db.execute(sql`
    insert into authorship_cache (thread_id, seq, turn, version, body, spans, summary)
    values (${last.threadId}, ${last.threadSeq}, ${last.turn}, ${state.version}, ${state.text},
      ${JSON.stringify(state.spans)}::jsonb, ${JSON.stringify(summary)}::jsonb)
    on conflict (thread_id, seq) do nothing`);
  // One row per thread and step is enough (the step's newest): reads of a later state start from it,
  // `?turn=k` finds it, and the table grows with the steps, not with every edit.
  await db.execute(sql`
    delete from authorship_cache where thread_id = ${last.threadId} and turn = ${last.turn} and seq < ${last.threadSeq}`);
  return { state, summary };
}

async function readNewestCached(
  db: DbOrTx,
  segments: readonly PathSegment[],
  throughTurn: number | null,
): Promise<CachedState | null> {
  const [row] = await db.execute<{
    thread_id: string;
    seq: number;
    version: number;
    body: string;
    spans: AuthorshipSpan[];
    summary: AuthorshipSummary;
  }>(sql`
    select c.thread_id, c.seq, c.version, c.body, c.spans, c.summary from authorship_cache c
    where ${onPath(segments, 'c', null)} ${throughTurn === null ? sql`` : sql`and c.turn <= ${throughTurn}`}
    order by ${pathOrder(segments, 'c')} desc, c.seq desc limit 1`);
  if (!row) return null;
  const segment = segments.find((s) => s.threadId === row.thread_id)!;
  return {
    position: { index: segment.index, seq: Number(row.seq) },
    state: { version: Number(row.version), text: row.body, spans: row.spans },
    summary: row.summary,
  };
}

type PathDocumentChange = DocumentBodyChange & { threadId: string; threadSeq: number };

/** The path's document-body changes after `from`, through step `throughTurn`, in log order. */
async function readDocumentChanges(
  db: DbOrTx,
  segments: readonly PathSegment[],
  from: { index: number; seq: number } | null,
  throughTurn: number | null,
): Promise<PathDocumentChange[]> {
  const rows = await db.execute<{
    thread_id: string;
    seq: number;
    turn: number;
    actor: DocumentBodyChange['actor'];
    via: DocumentBodyChange['via'];
    via_source: string | null;
    after: DocumentBodyAfter;
  }>(sql`
    select w.thread_id, w.seq, w.turn, w.actor, w.via, w.via_source, w.after from workspace_changes w
    where w.kind = 'document' and w.op = 'patch' and ${onPath(segments, 'w', from)}
      ${throughTurn === null ? sql`` : sql`and w.turn <= ${throughTurn}`}
    order by ${pathOrder(segments, 'w')}, w.seq`);
  const offsets = new Map(segments.map((s) => [s.threadId, s.offset]));
  return rows.map((row) => ({
    threadId: row.thread_id,
    threadSeq: Number(row.seq),
    seq: (offsets.get(row.thread_id) ?? 0) + Number(row.seq),
    turn: Number(row.turn),
    actor: row.actor,
    via: row.via,
    via_source: row.via_source,
    after: row.after,
  }));
}
