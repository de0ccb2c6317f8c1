// Full-text search over everything a person wrote or got back (docs/branching.md, "Search").
import { sql, type SQL } from 'drizzle-orm';
import {
  previewText,
  SEARCH_PAGE_SIZE,
  type SearchHitKind,
  type SearchQuery,
  type SearchResult,
} from '@trellis/domain';
import { searchVector, SEARCH_TEXT_PREFIX_CHARS } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from '../conversations/conversation-access';
import { loadStepLabels } from '../graph/step-labels';

interface HitRow extends Record<string, unknown> {
  thread_id: string;
  turn_index: number;
  kind: SearchHitKind;
  snippet: string;
}

const SNIPPET_CHARS = 200;

/**
 * The caller's user messages, replies, document versions, preferences and todos that match `q`
 * (`websearch_to_tsquery`), best first, one page. Only the caller's live threads (active, not
 * deleted) are searched; `family` narrows to one family. Every source is read through its GIN
 * index on `searchVector(...)`, so the cost follows the matches, not the history:
 * - messages: one hit per matching message, at its turn (a message lives in the thread owning it);
 * - documents: content-addressed bodies, indexed once; a matching body is one hit per family, at the
 *   first step that showed it (snapshot k holds the document after step k−1; the live document the
 *   one after the thread's latest step);
 * - preferences and todos: the live rows, one hit per family and text, at the latest step of the
 *   oldest thread holding it (a branch copies its parent's).
 * Labels are the family graph's: the suffix of the thread owning the step, from the domain.
 */
export async function searchHistory(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: SearchQuery,
): Promise<SearchResult> {
  const root = input.family === undefined ? null : (await requireOwnedThread(deps.db, actor, input.family)).conversation.rootThreadId;
  const offset = (input.page - 1) * SEARCH_PAGE_SIZE;
  const rows = await deps.db.execute<HitRow>(searchQuery(actor.userId, input.q, root, SEARCH_PAGE_SIZE + 1, offset));
  const page = rows.slice(0, SEARCH_PAGE_SIZE);
  const labelOf = await loadStepLabels(deps.db, page.map((row) => row.thread_id));
  return {
    hits: page.map((row) => ({
      thread_id: row.thread_id,
      turn_index: row.turn_index,
      label: labelOf(row.thread_id, row.turn_index),
      kind: row.kind,
      snippet: previewText(row.snippet, SNIPPET_CHARS),
    })),
    next_page: rows.length > SEARCH_PAGE_SIZE ? input.page + 1 : null,
  };
}

function searchQuery(userId: string, q: string, root: string | null, limit: number, offset: number): SQL {
  const v = (column: SQL) => searchVector(column);
  const query = sql`websearch_to_tsquery('english'::regconfig, ${q})`;
  return sql`
    with q as (select websearch_to_tsquery('english'::regconfig, ${q}) as query),
    mine as materialized (
      select c.thread_id, c.root_thread_id, c.turn_index, c.created_at
      from conversations c left join conversation_branches b on b.thread_id = c.thread_id
      where c.user_id = ${userId} and c.deleted_at is null and (b.thread_id is null or b.status = 'active')
        and (${root}::text is null or c.root_thread_id = ${root}::text)
    ),
    -- each source is matched through its GIN index first (materialized: never a per-row tsvector of the
    -- caller's whole history), then narrowed to the caller's threads
    matched_messages as materialized (
      select m.seq, m.thread_id, m.turn_index, m.role, m.content, m.created_at from messages m
      where ${v(sql`m.content`)} @@ ${query}
    ),
    matched_blobs as materialized (
      select b.hash, b.content from document_blobs b where ${v(sql`b.content`)} @@ ${query}
    ),
    matched_documents as materialized (
      select d.thread_id, d.content, d.updated_at from documents d where ${v(sql`d.content`)} @@ ${query}
    ),
    matched_preferences as materialized (
      select p.thread_id, p.text from preferences p where ${v(sql`p.text`)} @@ ${query}
    ),
    matched_todos as materialized (
      select t.thread_id, t.text from todos t where ${v(sql`t.text`)} @@ ${query}
    ),
    message_hits as (
      -- an apply entry opens its step as a user message would: it is a 'message' hit, never a reply
      select m.thread_id, m.turn_index, case when m.role = 'assistant' then 'reply' else 'message' end as kind,
        m.content as body, ts_rank(${v(sql`m.content`)}, q.query) as rank, m.created_at as at, m.seq::text as tie
      from q, matched_messages m join mine on mine.thread_id = m.thread_id
    ),
    document_places as (
      select mine.root_thread_id, s.thread_id, s.turn_index - 1 as turn_index, b.hash, b.content as body,
        ts_rank(${v(sql`b.content`)}, q.query) as rank, s.captured_at as at
      from q, matched_blobs b
      join workspace_snapshots s on s.document_hash = b.hash
      join mine on mine.thread_id = s.thread_id
      union all
      select mine.root_thread_id, d.thread_id, mine.turn_index, encode(sha256(convert_to(d.content, 'UTF8')), 'hex'),
        d.content, ts_rank(${v(sql`d.content`)}, q.query), d.updated_at
      from q, matched_documents d join mine on mine.thread_id = d.thread_id
    ),
    document_hits as (
      select distinct on (p.root_thread_id, p.hash) p.thread_id, p.turn_index, 'document' as kind, p.body, p.rank, p.at,
        p.hash as tie
      from document_places p order by p.root_thread_id, p.hash, p.at, p.thread_id
    ),
    item_hits as (
      select distinct on (i.root_thread_id, i.kind, i.body) i.thread_id, i.turn_index, i.kind, i.body, i.rank, i.at,
        i.thread_id || i.body as tie
      from (
        select mine.root_thread_id, p.thread_id, mine.turn_index, 'preference' as kind, p.text as body,
          ts_rank(${v(sql`p.text`)}, q.query) as rank, mine.created_at as at
        from q, matched_preferences p join mine on mine.thread_id = p.thread_id
        union all
        select mine.root_thread_id, t.thread_id, mine.turn_index, 'todo', t.text,
          ts_rank(${v(sql`t.text`)}, q.query), mine.created_at
        from q, matched_todos t join mine on mine.thread_id = t.thread_id
      ) i order by i.root_thread_id, i.kind, i.body, i.at, i.thread_id
    ),
    ranked as (
      select * from message_hits union all select * from document_hits union all select * from item_hits
      order by rank desc, at desc, tie limit ${limit} offset ${offset}
    )
    select r.thread_id, greatest(r.turn_index, 0)::int as turn_index, r.kind,
      case when length(r.body) <= ${SNIPPET_CHARS} then r.body else
        ts_headline('english'::regconfig, left(r.body, ${sql.raw(String(SEARCH_TEXT_PREFIX_CHARS))}), q.query,
          'MaxFragments=1, MaxWords=30, MinWords=10, ShortWord=0, StartSel="", StopSel=""') end as snippet
    from ranked r, q
    order by r.rank desc, r.at desc, r.tie`;
}
