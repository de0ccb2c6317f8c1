// Authorship of a path's document: the live document, or the document after step
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
  wordsByPerson,
  type Authorship,
  type AuthorshipSpan,
  type AuthorshipState,
  type AuthorshipSummary,
  type DocumentBodyAfter,
  type DocumentBodyChange,
  type FamilyThreadRow,
  EMPTY_AUTHORSHIP,
  stepSummaries,
} from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads } from '../graph/family-rows';
import { loadPathLineage } from '../lineage/load-lineage';
import { onPath, pathOrder, pathSegments, type PathSegment } from '../changes/path-log';
import { readSpanChanges } from './span-changes';
import { userNames } from '../members/user-names';

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
  const [{ threads, labelTurns }, changes, people] = await Promise.all([
    family,
    readSpanChanges(deps.db, segments, state.spans, input.changesAfter ?? 0),
    namedPeople(deps.db, wordsByPerson(state.text, state.spans)),
  ]);
  const suffixes = computeThreadSuffixes({ threads, nodes: labelTurns });
  const turns = [
    ...new Set(state.spans.filter((s) => s.via !== 'apply' && s.turn !== null).map((s) => s.turn as number)),
  ];
  const steps = turns
    .sort((a, b) => a - b)
    .map((turn) => ({ turn, label: stepLabel(turn, suffixes[ownerOfTurn(lineage, turn)] ?? '') }));
  return { version: state.version, spans: state.spans, steps, sources: namedSources(state.spans, threads, suffixes), summary, people, changes };
}

/** The people whose text the spans name, with their names. */
async function namedPeople(db: DbOrTx, counts: { user_id: string; words: number }[]): Promise<Authorship['people']> {
  const names = await userNames(db, counts.map((c) => c.user_id));
  return counts.map((c) => ({ ...c, name: names.get(c.user_id) || 'Someone' }));
}

/**
 * The steps of other paths the spans name, by label and path title: applied text's source and where it
 * was written, and the step cited text was copied from (the hover's "Agent, from 4.1").
 */
function namedSources(
  spans: readonly AuthorshipSpan[],
  threads: readonly FamilyThreadRow[],
  suffixes: Readonly<Record<string, string>>,
): Authorship['sources'] {
  const byId = new Map(threads.map((t) => [t.thread_id, t]));
  const nodes = new Map<string, { threadId: string; turn: number }>();
  const name = (threadId: string, turn: number) => nodes.set(`${threadId}:${turn}`, { threadId, turn });
  for (const span of spans) {
    if (span.via !== 'apply' && span.via !== 'cite') continue;
    if (span.source) {
      const at = span.source.lastIndexOf(':');
      const turn = Number(span.source.slice(at + 1));
      if (at > 0 && Number.isInteger(turn)) name(span.source.slice(0, at), turn);
    }
    if (span.via === 'apply' && span.thread_id && span.turn !== null) name(span.thread_id, span.turn);
  }
  return [...nodes].flatMap(([nodeId, { threadId, turn }]) => {
    let owner = byId.get(threadId);
    while (owner?.branch_point_turn != null && owner.parent_thread_id !== null && turn <= owner.branch_point_turn) {
      owner = byId.get(owner.parent_thread_id);
    }
    if (!owner) return [];
    return [{ node_id: nodeId, label: stepLabel(turn, suffixes[owner.thread_id] ?? ''), path_title: byId.get(threadId)?.title ?? owner.title }];
  });
}

/**
 * The newest state this process computed per path (its segments and `throughTurn`): a read after one
 * edit starts here and reads only the changes after it, never the cached row (whose spans grow with
 * the document's history of edits). The log is append-only, so a state once computed stays true; the
 * table below is what other processes and restarts start from.
 */
interface MemoState extends CachedState {
  /** Changes advanced since the state was last written to `authorship_cache`. */
  unsaved: number;
  savedTurn: number | null;
}
const MEMO_LIMIT = 256;
const memo = new Map<string, MemoState>();
/** A written row is worth its cost once this many changes went by, or a new step began. */
const SAVE_EVERY = 16;

function memoKey(segments: readonly PathSegment[], throughTurn: number | null): string {
  return `${segments.map((s) => `${s.threadId}/${s.cut ?? ''}`).join('|')}@${throughTurn ?? ''}`;
}

/** The spans after the path's last document change with `turn <= throughTurn` (null: the last one). */
export async function readAuthorship(
  db: DbOrTx,
  segments: readonly PathSegment[],
  throughTurn: number | null,
): Promise<{ state: AuthorshipState; summary: AuthorshipSummary }> {
  const key = memoKey(segments, throughTurn);
  const remembered = memo.get(key);
  const cached = remembered ?? (await readNewestCached(db, segments, throughTurn));
  const changes = await readDocumentChanges(db, segments, cached?.position ?? null, throughTurn);
  const last = changes.at(-1);
  if (!last) {
    const found = cached ?? { position: { index: 0, seq: 0 }, state: EMPTY_AUTHORSHIP, summary: summarizeAuthorship('', []) };
    if (cached && !remembered) remember(key, { ...cached, unsaved: 0, savedTurn: null });
    return found;
  }
  const state = advanceAuthorship(cached?.state ?? EMPTY_AUTHORSHIP, changes);
  const summary = summarizeAuthorship(state.text, state.spans);
  const segment = segments.find((s) => s.threadId === last.threadId)!;
  const next: MemoState = {
    position: { index: segment.index, seq: last.threadSeq },
    state,
    summary,
    unsaved: (remembered?.unsaved ?? 0) + changes.length,
    savedTurn: remembered?.savedTurn ?? null,
  };
  if (!remembered || next.unsaved >= SAVE_EVERY || next.savedTurn !== last.turn) {
    await saveCached(db, last, state, summary);
    next.unsaved = 0;
    next.savedTurn = last.turn;
  }
  remember(key, next);
  return { state, summary };
}

function remember(key: string, entry: MemoState): void {
  memo.delete(key);
  memo.set(key, entry);
  if (memo.size > MEMO_LIMIT) memo.delete(memo.keys().next().value!);
}

async function saveCached(db: DbOrTx, last: PathDocumentChange, state: AuthorshipState, summary: AuthorshipSummary): Promise<void> {
  // Keyed by the change it follows, a state is the same on every path that holds that change. One row
  // per thread and step is enough (the step's newest): reads of a later state start from it, `?turn=k`
  // finds it, and the table grows with the steps, not with every edit. One statement, one round trip.
  await db.execute(sql`
    with saved as (
      insert into authorship_cache (thread_id, seq, turn, version, body, spans, summary)
      values (${last.threadId}, ${last.threadSeq}, ${last.turn}, ${state.version}, ${state.text},
        ${JSON.stringify(state.spans)}::jsonb, ${JSON.stringify(summary)}::jsonb)
      on conflict (thread_id, seq) do nothing)
    delete from authorship_cache where thread_id = ${last.threadId} and turn = ${last.turn} and seq < ${last.threadSeq}`);
}

/**
 * What each step of the path after `afterTurn` wrote, by author (`summarizeStep` right after the step):
 * the step detail's and the dataset's counts, one read of the path's changes from the cache at
 * `afterTurn` (a branch's own steps start from its branch point).
 */
export async function readStepWords(
  db: DbOrTx,
  segments: readonly PathSegment[],
  afterTurn: number,
): Promise<Map<number, AuthorshipSummary>> {
  const cached = await readNewestCached(db, segments, afterTurn);
  const changes = await readDocumentChanges(db, segments, cached?.position ?? null, null);
  return stepSummaries(cached?.state ?? EMPTY_AUTHORSHIP, changes, afterTurn);
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
    actor_id: string | null;
    via: DocumentBodyChange['via'];
    via_source: string | null;
    after: DocumentBodyAfter;
  }>(sql`
    select w.thread_id, w.seq, w.turn, w.actor, w.actor_id, w.via, w.via_source, w.after from workspace_changes w
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
    actor_id: row.actor_id,
    via: row.via,
    via_source: row.via_source,
    after: row.after,
  }));
}
