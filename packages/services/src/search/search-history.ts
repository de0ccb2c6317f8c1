// Full-text search over everything a person wrote or got back (docs/branching.md, "Search").
import { sql, type SQL } from 'drizzle-orm';
import {
  MATCH_END,
  MATCH_START,
  plainTitle,
  readMarkedSnippet,
  SEARCH_PAGE_SIZE,
  type SearchHitKind,
  type SearchQuery,
  type SearchResult,
} from '@trellis/domain';
import { searchVector, SEARCH_TEXT_PREFIX_CHARS } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { actorUserId, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadStepLabels } from '../graph/step-labels';

interface HitRow extends Record<string, unknown> {
  thread_id: string;
  path_title: string;
  turn_index: number;
  first_turn_index: number;
  is_latest_step: boolean;
  kind: SearchHitKind;
  snippet: string;
}

const SNIPPET_CHARS = 200;
/** `ts_headline` options: matched words between STX and ETX, read back into ranges (`readMarkedSnippet`). */
const MARKS = `StartSel="${MATCH_START}", StopSel="${MATCH_END}"`;
/** A blank line: what separates the paragraphs a document passage is taken from. */
const PARAGRAPH_BREAK = '\n\\s*\n';

/**
 * The caller's user messages, replies, document versions, preferences and todos that match `q`
 * (`websearch_to_tsquery`), best first, one page. Only the caller's live threads (active, not
 * deleted) are searched; `family` narrows to one family. Every source is read through its GIN
 * index on `searchVector(...)`, so the cost follows the matches, not the history:
 * - messages: one hit per matching message, at its turn (a message lives in the thread owning it);
 *   the same message at the same step of one family (a regeneration re-sends it) is one hit;
 * - documents: content-addressed bodies, indexed once. A matching body's passage is its first
 *   paragraph that matches; a passage is one hit per family however many versions hold it (issue
 *   22: one sentence kept through seven versions is one hit), on the path that held it through the
 *   most steps (then the one that held it last), with the range of that path's steps that hold it (snapshot k holds the document after step k−1; the
 *   live document the one after the thread's latest step);
 * - preferences and todos: the live rows, one hit per family and text, at the latest step of the
 *   oldest thread holding it (a branch copies its parent's).
 * Each hit names its path (title) and step; labels are the family graph's: the suffix of the thread
 * owning the step, from the domain. Snippets come with the ranges of the words that matched.
 */
export async function searchHistory(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: SearchQuery,
): Promise<SearchResult> {
  const root = input.family === undefined ? null : (await requireThreadAccess(deps.db, actor, input.family, 'read')).conversation.rootThreadId;
  const offset = (input.page - 1) * SEARCH_PAGE_SIZE;
  const rows = await deps.db.execute<HitRow>(searchQuery(actorUserId(actor), input.q, root, SEARCH_PAGE_SIZE + 1, offset));
  const page = rows.slice(0, SEARCH_PAGE_SIZE);
  const labelOf = await loadStepLabels(deps.db, page.map((row) => row.thread_id));
  return {
    hits: page.map((row) => {
      const snippet = readMarkedSnippet(row.snippet, SNIPPET_CHARS);
      return {
        thread_id: row.thread_id,
        path_title: plainTitle(row.path_title),
        turn_index: row.turn_index,
        label: labelOf(row.thread_id, row.turn_index),
        first_turn_index: row.first_turn_index,
        first_label: labelOf(row.thread_id, row.first_turn_index),
        is_latest_step: row.is_latest_step,
        kind: row.kind,
        snippet: snippet.text,
        highlights: snippet.highlights,
      };
    }),
    next_page: rows.length > SEARCH_PAGE_SIZE ? input.page + 1 : null,
  };
}

function searchQuery(userId: string, q: string, root: string | null, limit: number, offset: number): SQL {
  const v = (column: SQL) => searchVector(column);
  const query = sql`websearch_to_tsquery('english'::regconfig, ${q})`;
  const prefix = sql.raw(String(SEARCH_TEXT_PREFIX_CHARS));
  return sql`
    with q as (select websearch_to_tsquery('english'::regconfig, ${q}) as query),
    mine as materialized (
      select c.thread_id, c.root_thread_id, c.turn_index, c.created_at
      from conversations c left join conversation_branches b on b.thread_id = c.thread_id
      -- the caller's own families and those shared with it
      where (c.user_id = ${userId} or c.root_thread_id in (select fm.family_id from family_members fm where fm.user_id = ${userId}))
        and c.deleted_at is null and (b.thread_id is null or b.status = 'active')
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
      select distinct on (mine.root_thread_id, m.turn_index, m.role, m.content)
        m.thread_id, m.turn_index, m.turn_index as first_turn, case when m.role = 'assistant' then 'reply' else 'message' end as kind,
        m.content as body, ts_rank(${v(sql`m.content`)}, q.query) as rank, m.created_at as at, m.seq::text as tie
      from q, matched_messages m join mine on mine.thread_id = m.thread_id
      order by mine.root_thread_id, m.turn_index, m.role, m.content, m.created_at, m.seq
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
    -- a body's passage: its first matching paragraph (the whole text when no one paragraph matches,
    -- as for a phrase across a blank line), computed once per body
    document_passages as materialized (
      select h.hash, coalesce(par.text, left(h.body, ${prefix})) as passage
      from (select distinct on (p.hash) p.hash, p.body from document_places p order by p.hash) h
      left join lateral (
        select btrim(t.text, E' \t\r\n') as text
        from q, regexp_split_to_table(left(h.body, ${prefix}), ${PARAGRAPH_BREAK}) with ordinality as t(text, n)
        where to_tsvector('english'::regconfig, t.text) @@ q.query
        order by t.n limit 1
      ) par on true
    ),
    document_placed as (
      select p.root_thread_id, p.thread_id, p.turn_index, p.rank, p.at, d.passage
      from document_places p join document_passages d on d.hash = p.hash
    ),
    document_paths as (
      -- one path per family and passage: the one that held it through the most steps (a regenerated
      -- reply that inherited it holds it at one), then the one that held it last
      select distinct on (root_thread_id, passage) root_thread_id, passage, thread_id
      from (
        select root_thread_id, passage, thread_id, count(distinct turn_index) as steps, max(at) as last_at
        from document_placed group by root_thread_id, passage, thread_id
      ) t
      order by root_thread_id, passage, steps desc, last_at desc, thread_id
    ),
    document_hits as (
      select b.thread_id, max(p.turn_index) as turn_index, min(p.turn_index) as first_turn, 'document' as kind,
        b.passage as body, max(p.rank) as rank, max(p.at) as at, md5(b.passage) as tie
      from document_paths b
      join document_placed p on p.root_thread_id = b.root_thread_id and p.passage = b.passage and p.thread_id = b.thread_id
      group by b.root_thread_id, b.passage, b.thread_id
    ),
    item_hits as (
      select distinct on (i.root_thread_id, i.kind, i.body) i.thread_id, i.turn_index, i.turn_index as first_turn, i.kind,
        i.body, i.rank, i.at, i.thread_id || i.body as tie
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
    select r.thread_id, c.title as path_title, greatest(r.turn_index, 0)::int as turn_index,
      greatest(r.first_turn, 0)::int as first_turn_index, r.turn_index >= c.turn_index as is_latest_step, r.kind,
      case when length(r.body) <= ${SNIPPET_CHARS} then
        ts_headline('english'::regconfig, translate(r.body, ${MATCH_START + MATCH_END}, ''), q.query, ${`HighlightAll=true, ${MARKS}`})
      else
        ts_headline('english'::regconfig, translate(left(r.body, ${prefix}), ${MATCH_START + MATCH_END}, ''), q.query,
          ${`MaxFragments=1, MaxWords=30, MinWords=10, ShortWord=0, ${MARKS}`}) end as snippet
    from ranked r join conversations c on c.thread_id = r.thread_id, q
    order by r.rank desc, r.at desc, r.tie`;
}
