// A family — or every family of the caller — as a research dataset: a zip that is a
// Frictionless Tabular Data Package, built as it streams. Each table is read with a server-side
// cursor in batches and written as CSV into a streaming zip entry; the next batch is read only when
// the response has taken the last one (pull-based), so memory follows a batch, not the family. What
// is kept across tables is per path (lineages, labels) and per step (word counts): small numbers.
import { createHmac, randomBytes } from 'node:crypto';
import { Zip, ZipDeflate, strToU8 } from 'fflate';
import { stringify } from 'csv-stringify/sync';
import {
  DATASET_TABLES,
  dataPackageDescriptor,
  studyDatasetTables,
  datasetCells,
  safeFilename,
  type DatasetRow,
  type AuthorshipSummary,
  type DatasetTable,
  type FamilyRole,
} from '@trellis/domain';
import type postgres from 'postgres';
import type { Db } from '@trellis/db';
import { readStepWords } from '../authorship/get-authorship';
import { pathSegments } from '../changes/path-log';
import { loadPathLineage } from '../lineage/load-lineage';
import type { ServiceDeps } from '../deps';
import { actorUserId, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { advancePassagesOf } from '../comments/comments';
import { loadStepLabels } from '../graph/step-labels';

const BATCH = 500;

export interface DatasetExport {
  filename: string;
  contentType: 'application/zip';
  stream: ReadableStream<Uint8Array>;
}

interface PathRow {
  thread_id: string;
  root_thread_id: string;
  parent_thread_id: string | null;
  branch_point_turn: number | null;
  reason: string | null;
  title: string;
  is_starred: boolean;
  is_archived: boolean;
  deleted: boolean;
  created_at: string;
  owner_id: string;
  owner_email: string;
  /** The exporter's role in the path's family. */
  role: FamilyRole;
}

/**
 * A study's families and its `participants` and `conditions` tables (see `studyDatasetTables`):
 * the caller checked the study is theirs; the dataset is then the families named here.
 */
export interface StudyDataset {
  title: string;
  /** The participants' families (root thread id → participant id). */
  participantOf: ReadonlyMap<string, string>;
  participants: DatasetRow[];
  conditions: DatasetRow[];
  includePid: boolean;
}

/**
 * `threadId`: that thread's family; without it, every family the caller may read (its own and those
 * shared with it). Ownership is checked
 * before anything streams (404/403 as a JSON error, not a broken zip).
 */
export async function exportDataset(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId?: string | undefined; pseudonymize?: boolean | undefined; study?: StudyDataset | undefined },
): Promise<DatasetExport> {
  const { db } = deps;
  const userId = actorUserId(actor);
  let root: string | null = null;
  let title = input.study?.title ?? 'Trellis families';
  const roots = input.study ? [...input.study.participantOf.keys()] : null;
  if (input.threadId !== undefined) {
    const { conversation } = await requireThreadAccess(db, actor, input.threadId, 'read');
    root = conversation.rootThreadId;
    title = conversation.title;
  }
  const sql = db.$client;
  const allPaths = (await sql<PathRow[]>`
    select c.thread_id, c.root_thread_id, b.parent_thread_id, b.branch_point_turn, b.reason, c.title, c.is_starred, c.is_archived,
      c.deleted_at is not null as deleted, to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      c.user_id as owner_id, u.email as owner_email, coalesce(fm.role, 'owner') as role
    from conversations c left join conversation_branches b on b.thread_id = c.thread_id
    join "user" u on u.id = c.user_id
    left join family_members fm on fm.family_id = c.root_thread_id and fm.user_id = ${userId}
    where (c.user_id = ${userId} or fm.role is not null) and (${root}::text is null or c.root_thread_id = ${root})
      and (${roots === null}::boolean or c.root_thread_id = any(${roots ?? []}::text[]))
      and (b.status is null or b.status = 'active')
    order by c.created_at, c.thread_id`) as PathRow[];
  const paths = exportedPaths(allPaths);
  const labelOf = await loadStepLabels(db, paths.filter((p) => p.parent_thread_id === null).map((p) => p.thread_id));
  // Passage comments are exported where they stand now: bring each path's up to its last change first.
  await advancePassagesOf(db, paths.map((p) => p.thread_id));
  const salt = randomBytes(32);
  const hide = (value: string | null | undefined): string | null =>
    value == null || value === '' ? null : input.pseudonymize ? `anon_${createHmac('sha256', salt).update(value).digest('hex').slice(0, 20)}` : value;
  const context = new DatasetContext(paths, labelOf);
  const name = input.threadId === undefined && !input.study ? 'trellis-dataset' : `${title} dataset`;
  const tables = input.study ? studyDatasetTables({ includePid: input.study.includePid }) : DATASET_TABLES;
  const chunks = datasetChunks(db, {
    study: input.study,
    tables,
    actorId: userId,
    root,
    threadIds: paths.map((p) => p.thread_id),
    context,
    hide,
    descriptor: dataPackageDescriptor({
      name: 'trellis-family',
      title,
      created: new Date().toISOString(),
      pseudonymized: input.pseudonymize === true,
      tables,
    }),
  });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return { filename: safeFilename(name, 'zip'), contentType: 'application/zip', stream };
}

/**
 * Deleted is deleted: a deleted path is left out, with everything it holds, unless a live path
 * still inherits from it (its ancestors' turns are part of that path), as the family graph keeps
 * it. A deleted family is gone from the dataset entirely.
 */
function exportedPaths(paths: readonly PathRow[]): PathRow[] {
  const byId = new Map(paths.map((p) => [p.thread_id, p]));
  const kept = new Set<string>();
  for (const path of paths) {
    if (path.deleted) continue;
    for (let p: PathRow | undefined = path; p && !kept.has(p.thread_id); p = p.parent_thread_id ? byId.get(p.parent_thread_id) : undefined) {
      kept.add(p.thread_id);
    }
  }
  return paths.filter((p) => kept.has(p.thread_id));
}

/** What the tables share: each path's lineage (for parents and owners of turns), labels, word counts. */
class DatasetContext {
  readonly byId: Map<string, PathRow>;
  readonly words = new Map<string, AuthorshipSummary>();

  constructor(
    readonly paths: readonly PathRow[],
    readonly labelOf: (threadId: string, turn: number) => string,
  ) {
    this.byId = new Map(paths.map((p) => [p.thread_id, p]));
  }

  /** The step id of turn k as `threadId` sees it (its own, or an ancestor's at or before the branch point); null at turn 0. */
  stepOf(threadId: string, turn: number): string | null {
    if (turn < 1) return null;
    let owner = this.byId.get(threadId);
    while (owner && owner.branch_point_turn !== null && owner.parent_thread_id !== null && turn <= owner.branch_point_turn) {
      owner = this.byId.get(owner.parent_thread_id);
    }
    return owner ? `${owner.thread_id}:${turn}` : null;
  }

  depthOf(threadId: string): number {
    let depth = 0;
    for (let p = this.byId.get(threadId); p?.parent_thread_id; p = this.byId.get(p.parent_thread_id)) depth++;
    return depth;
  }
}

interface ChunkInput {
  study: StudyDataset | undefined;
  tables: readonly DatasetTable[];
  actorId: string;
  root: string | null;
  /** The paths exported (see exportedPaths): every table reads these threads' rows only. */
  threadIds: readonly string[];
  context: DatasetContext;
  hide: (value: string | null | undefined) => string | null;
  descriptor: object;
}

type Sql = Db['$client'];
type Fragment = postgres.Fragment;

async function* datasetChunks(db: Db, input: ChunkInput): AsyncGenerator<Uint8Array, void, undefined> {
  const sql = db.$client;
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else out.push(data);
  });
  const drain = function* (): Generator<Uint8Array> {
    if (failure) throw failure;
    while (out.length > 0) yield out.shift()!;
  };
  const { context, hide } = input;
  const family = input.root === null ? sql`true` : sql`c.root_thread_id = ${input.root}`;
  // Every family the exporter may read: its own, and those shared with it (the `families` table names its role);
  // of those, only the exported paths (deleted ones left out).
  const owned = sql`(c.user_id = ${input.actorId} or c.root_thread_id in (select fm.family_id from family_members fm where fm.user_id = ${input.actorId})) and ${family} and c.thread_id = any(${input.threadIds as string[]}::text[])`;
  const table = (name: string): DatasetTable => input.tables.find((t) => t.name === name)!;

  /** One CSV entry: the header, then each batch of rows as it comes. */
  async function* csv(name: string, rows: AsyncIterable<DatasetRow[]> | Iterable<DatasetRow[]>): AsyncGenerator<Uint8Array> {
    const spec = table(name);
    const entry = new ZipDeflate(`${name}.csv`, { level: 6 });
    zip.add(entry);
    entry.push(strToU8(stringify([spec.fields.map((f) => f.name)])));
    yield* drain();
    for await (const batch of rows) {
      if (batch.length === 0) continue;
      entry.push(strToU8(stringify(batch.map((row) => datasetCells(spec, row)))));
      yield* drain();
    }
    entry.push(new Uint8Array(0), true);
    yield* drain();
  }

  const descriptor = new ZipDeflate('datapackage.json', { level: 6 });
  zip.add(descriptor);
  descriptor.push(strToU8(`${JSON.stringify(input.descriptor, null, 2)}\n`), true);
  yield* drain();

  yield* csv('families', [
    context.paths
      .filter((p) => p.parent_thread_id === null)
      .map((p) => ({
        family_id: p.thread_id,
        owner_id: hide(p.owner_id),
        // A study's families are all the researcher's: their address has no place in the study's data.
        owner_email: input.study ? null : hide(p.owner_email),
        participant_id: input.study?.participantOf.get(p.thread_id) ?? null,
        role: p.role,
        title: p.title,
        created_at: p.created_at,
      })),
  ]);

  yield* csv('paths', [
    context.paths.map((p) => ({
      path_id: p.thread_id,
      family_id: p.root_thread_id,
      parent_path_id: p.parent_thread_id,
      branch_point: p.branch_point_turn,
      reason: p.reason,
      title: p.title,
      starred: p.is_starred,
      archived: p.is_archived,
      deleted: p.deleted,
      created_at: p.created_at,
    })),
  ]);

  yield* csv(
    'changes',
    mapBatches(
      sql`select w.thread_id, w.seq, w.turn, w.actor, w.actor_id, w.via, w.via_source, w.kind, w.key, w.op, w.before, w.after,
            ${iso(sql, 'w.created_at')} as created_at
          from workspace_changes w join conversations c on c.thread_id = w.thread_id
          where ${owned} order by w.thread_id, w.seq`.cursor(BATCH),
      (r: Record<string, unknown>) => {
        const threadId = String(r.thread_id);
        const step = context.stepOf(threadId, Number(r.turn));
        return {
          change_id: `${threadId}:${String(r.seq)}`,
          path_id: threadId,
          seq: Number(r.seq),
          step_id: step,
          actor: String(r.actor),
          actor_id: r.actor === 'person' ? hide(r.actor_id as string | null) : (r.actor_id as string | null),
          via: String(r.via),
          via_source: r.via_source as string | null,
          kind: String(r.kind),
          key: r.key as string | null,
          op: String(r.op),
          before: r.before == null ? null : JSON.stringify(r.before),
          after: r.after == null ? null : JSON.stringify(r.after),
          created_at: String(r.created_at),
        };
      },
    ),
  );

  // Each step's words by author: the authorship of the path's document right after the step, counted
  // as the step detail and the overlay count them (one function), so applied text counts for the step
  // that wrote it on its source path, never for the person who applied it.
  for (const path of context.paths) {
    const lineage = await loadPathLineage(db, path.thread_id);
    const words = await readStepWords(db, pathSegments(lineage), path.branch_point_turn ?? 0);
    for (const [turn, summary] of words) context.words.set(`${path.thread_id}:${turn}`, summary);
  }

  // Each table is its own cursor: a table that is read off another (tool calls and applies off the
  // messages, edges off the steps and the applies) is read again by its own query rather than kept
  // in memory until its turn, so memory stays one batch whatever the family's size.
  yield* csv(
    'steps',
    mapBatches(
      sql`select s.thread_id, s.turn_index, s.user_message, ${iso(sql, 's.captured_at')} as started_at,
            ${iso(sql, 'r.created_at')} as finished_at, r.status, sc.items_added, sc.items_removed, sc.items_edited
          from workspace_snapshots s join conversations c on c.thread_id = s.thread_id
          left join lateral (select m.created_at, m.status from messages m
            where m.thread_id = s.thread_id and m.turn_index = s.turn_index and m.role = 'assistant' order by m.seq desc limit 1) r on true
          left join step_changes sc on sc.thread_id = s.thread_id and sc.turn_index = s.turn_index
          where ${owned} order by s.thread_id, s.turn_index`.cursor(BATCH),
      (r: Record<string, unknown>) => {
        const threadId = String(r.thread_id);
        const turn = Number(r.turn_index);
        const id = `${threadId}:${turn}`;
        const words = context.words.get(id);
        return {
          step_id: id,
          parent_step_id: context.stepOf(threadId, turn - 1),
          path_id: threadId,
          turn,
          label: context.labelOf(threadId, turn),
          depth: context.depthOf(threadId),
          user_message: r.user_message as string | null,
          started_at: String(r.started_at),
          finished_at: r.finished_at as string | null,
          status: r.status as string | null,
          person_words: words?.person_words ?? 0,
          agent_words: words?.agent_words ?? 0,
          agent_edited_words: words?.agent_edited_words ?? 0,
          items_added: r.items_added as number | null,
          items_removed: r.items_removed as number | null,
          items_edited: r.items_edited as number | null,
        };
      },
    ),
  );

  yield* csv(
    'messages',
    mapBatches(
      sql`select m.id, m.thread_id, m.turn_index, m.role, m.content, m.status, m.reason, m.input_tokens, m.output_tokens, m.model,
            ${iso(sql, 'm.created_at')} as created_at
          from messages m join conversations c on c.thread_id = m.thread_id
          where ${owned} order by m.thread_id, m.seq`.cursor(BATCH),
      (r: Record<string, unknown>) => ({
        message_id: String(r.id),
        step_id: `${String(r.thread_id)}:${Number(r.turn_index)}`,
        role: String(r.role),
        content: String(r.content),
        status: String(r.status),
        reason: r.reason as string | null,
        input_tokens: r.input_tokens as number | null,
        output_tokens: r.output_tokens as number | null,
        model: r.model as string | null,
        created_at: String(r.created_at),
      }),
    ),
  );

  yield* csv(
    'tool_calls',
    mapBatches(
      sql`select m.id, m.thread_id, m.turn_index, t.position - 1 as position, t.call
          from messages m join conversations c on c.thread_id = m.thread_id
          cross join lateral jsonb_array_elements(m.tool_calls) with ordinality as t(call, position)
          where ${owned} and jsonb_typeof(m.tool_calls) = 'array' order by m.thread_id, m.seq, t.position`.cursor(BATCH),
      (r: Record<string, unknown>) => {
        const call = (r.call ?? {}) as { name?: string; args?: unknown; result?: string; is_error?: boolean };
        return {
          tool_call_id: `${String(r.id)}:${Number(r.position)}`,
          message_id: String(r.id),
          step_id: `${String(r.thread_id)}:${Number(r.turn_index)}`,
          position: Number(r.position),
          name: call.name ?? '',
          arguments: JSON.stringify(call.args ?? {}),
          result: call.result ?? null,
          error: call.is_error === true,
        };
      },
    ),
  );

  yield* csv('items', itemBatches(sql, owned, context));
  const applyRows = () =>
    sql`select m.thread_id, m.turn_index, m.provenance from messages m join conversations c on c.thread_id = m.thread_id
        where ${owned} and m.kind = 'apply' and coalesce(m.provenance->>'source_node_id', '') <> '' order by m.thread_id, m.seq`.cursor(BATCH);
  yield* csv(
    'applies',
    mapBatches(applyRows(), (r: Record<string, unknown>) => {
      const provenance = r.provenance as { source_node_id: string; items?: string[]; note?: string | null; undoes?: number };
      return {
        step_id: `${String(r.thread_id)}:${Number(r.turn_index)}`,
        source_step_id: provenance.source_node_id,
        items: JSON.stringify(provenance.items ?? []),
        note: provenance.note ?? null,
        undoes_step_id: provenance.undoes === undefined ? null : `${String(r.thread_id)}:${provenance.undoes}`,
      };
    }),
  );

  yield* csv(
    'decisions',
    mapBatches(
      sql`select d.id, d.thread_id, d.turn_index, d.kind, d.key, d.text, d.editor, ${iso(sql, 'd.discarded_at')} as discarded_at
          from discarded_items d join conversations c on c.thread_id = d.thread_id
          where ${owned} order by d.id`.cursor(BATCH),
      (r: Record<string, unknown>) => ({
        decision_id: String(r.id),
        step_id: context.stepOf(String(r.thread_id), Number(r.turn_index)),
        kind: String(r.kind),
        key: String(r.key),
        text: String(r.text),
        discarded_by: String(r.editor),
        discarded_at: String(r.discarded_at),
      }),
    ),
  );
  // A step cites what its latest reply read, as the graph draws it: a superseded attempt's citations are not edges.
  const citeRows = () =>
    sql`select distinct r.thread_id, r.turn_index, c2.ref->>'thread_id' as source_thread, (c2.ref->>'turn')::int as source_turn
        from (select distinct on (m.thread_id, m.turn_index) m.thread_id, m.turn_index, m.citations
            from messages m join conversations c on c.thread_id = m.thread_id
            where ${owned} and m.role <> 'user' order by m.thread_id, m.turn_index, m.seq desc) r
        cross join lateral jsonb_array_elements(r.citations) as c2(ref)
        where r.citations is not null order by r.thread_id, r.turn_index`.cursor(BATCH);
  yield* csv('edges', edgeBatches(sql, owned, context, applyRows(), citeRows()));
  yield* csv(
    'comments',
    mapBatches(
      sql`select k.id, k.thread_id, k.parent_id, k.anchor_kind, k.turn, k.message_id, k.start, k."end", k.quote,
            k.orphaned_at_turn, k.author_id, k.body, k.resolved_at, ${iso(sql, 'k.created_at')} as created_at
          from comments k join conversations c on c.thread_id = k.thread_id
          where ${owned} order by k.thread_id, k.created_at, k.id`.cursor(BATCH),
      (r: Record<string, unknown>) => ({
        comment_id: String(r.id),
        path_id: String(r.thread_id),
        step_id: r.turn === null ? null : context.stepOf(String(r.thread_id), Number(r.turn)),
        parent_comment_id: (r.parent_id as string | null) ?? null,
        anchor_kind: String(r.anchor_kind),
        message_id: (r.message_id as string | null) ?? null,
        start: r.start === null ? null : Number(r.start),
        end: r.end === null ? null : Number(r.end),
        quote: (r.quote as string | null) ?? null,
        orphaned: r.orphaned_at_turn !== null,
        author_id: hide(r.author_id as string),
        body: String(r.body),
        created_at: String(r.created_at),
        resolved: r.resolved_at !== null,
      }),
    ),
  );
  if (input.study) {
    yield* csv('participants', [input.study.participants]);
    yield* csv('conditions', [input.study.conditions]);
  }
  zip.end();
  yield* drain();
}

/** Every preference and todo after each step (the snapshot of the next step, or the live rows at a path's tip), and each artifact at its step. */
async function* itemBatches(sql: Sql, owned: Fragment, context: DatasetContext): AsyncGenerator<DatasetRow[]> {
  const itemRows = (step: string, prefs: unknown, todos: unknown): DatasetRow[] => [
    ...asList(prefs).map((p, position) => ({ step_id: step, kind: 'preference', key: str(p.key), position, text: str(p.text) ?? '', locked: p.locked === true })),
    ...asList(todos).map((t, position) => ({
      step_id: step,
      kind: 'todo',
      key: str(t.key),
      position,
      text: str(t.text) ?? '',
      done: t.done === true,
      depth: typeof t.depth === 'number' ? t.depth : 0,
    })),
  ];
  // Snapshot j of a path is the state after its step j−1 (when the path owns that step).
  const snapshots = sql`select s.thread_id, s.turn_index, s.preferences, s.todos from workspace_snapshots s
    join conversations c on c.thread_id = s.thread_id where ${owned} order by s.thread_id, s.turn_index`.cursor(BATCH);
  for await (const batch of snapshots as AsyncIterable<Record<string, unknown>[]>) {
    const rows: DatasetRow[] = [];
    for (const r of batch) {
      const threadId = String(r.thread_id);
      const turn = Number(r.turn_index);
      const path = context.byId.get(threadId);
      if (turn < 2 || (path?.branch_point_turn != null && turn - 1 <= path.branch_point_turn)) continue;
      rows.push(...itemRows(`${threadId}:${turn - 1}`, r.preferences, r.todos));
    }
    yield rows;
  }
  // A path's tip: its live rows.
  const live = sql`select c.thread_id, c.turn_index,
      coalesce((select json_agg(json_build_object('key', p.key, 'text', p.text, 'locked', p.locked) order by p.position) from preferences p where p.thread_id = c.thread_id), '[]') as preferences,
      coalesce((select json_agg(json_build_object('key', t.key, 'text', t.text, 'done', t.done, 'depth', t.depth) order by t.position) from todos t where t.thread_id = c.thread_id), '[]') as todos
    from conversations c left join conversation_branches b on b.thread_id = c.thread_id
    where ${owned} and c.turn_index > coalesce(b.branch_point_turn, 0) order by c.thread_id`.cursor(BATCH);
  for await (const batch of live as AsyncIterable<Record<string, unknown>[]>) {
    yield batch.flatMap((r) => itemRows(`${String(r.thread_id)}:${Number(r.turn_index)}`, r.preferences, r.todos));
  }
  // Artifacts at the step that made them (a branch's copies of inherited ones are its ancestor's).
  const artifacts = sql`select a.thread_id, a.turn_index, a.key, a.kind, a.title, a.content from artifacts a
    join conversations c on c.thread_id = a.thread_id left join conversation_branches b on b.thread_id = a.thread_id
    where ${owned} and a.turn_index > coalesce(b.branch_point_turn, 0) and a.turn_index > 0 order by a.thread_id, a.turn_index, a.id`.cursor(BATCH);
  let last = '';
  let position = 0;
  for await (const batch of artifacts as AsyncIterable<Record<string, unknown>[]>) {
    yield batch.map((r) => {
      const step = `${String(r.thread_id)}:${Number(r.turn_index)}`;
      position = step === last ? position + 1 : 0;
      last = step;
      return { step_id: step, kind: 'artifact', key: str(r.key), position, text: String(r.title), artifact_kind: String(r.kind), content: String(r.content) };
    });
  }
}

async function* mapBatches(
  cursor: AsyncIterable<readonly Record<string, unknown>[]>,
  map: (row: Record<string, unknown>) => DatasetRow,
): AsyncGenerator<DatasetRow[]> {
  for await (const batch of cursor) yield batch.map(map);
}

/** A step's edge from the step before it (`turn`, or `branch` where that is another path's), then each apply's edge from its source, then each citation's. */
async function* edgeBatches(
  sql: Sql,
  owned: Fragment,
  context: DatasetContext,
  applies: AsyncIterable<readonly Record<string, unknown>[]>,
  citations: AsyncIterable<readonly Record<string, unknown>[]>,
): AsyncGenerator<DatasetRow[]> {
  const steps = sql`select s.thread_id, s.turn_index from workspace_snapshots s join conversations c on c.thread_id = s.thread_id
    where ${owned} order by s.thread_id, s.turn_index`.cursor(BATCH) as AsyncIterable<Record<string, unknown>[]>;
  for await (const batch of steps) {
    const rows: DatasetRow[] = [];
    for (const r of batch) {
      const threadId = String(r.thread_id);
      const turn = Number(r.turn_index);
      const parent = context.stepOf(threadId, turn - 1);
      if (parent !== null) rows.push({ source_step_id: parent, target_step_id: `${threadId}:${turn}`, kind: parent.startsWith(`${threadId}:`) ? 'turn' : 'branch' });
    }
    yield rows;
  }
  yield* mapBatches(applies, (r) => ({
    source_step_id: (r.provenance as { source_node_id: string }).source_node_id,
    target_step_id: `${String(r.thread_id)}:${Number(r.turn_index)}`,
    kind: 'apply',
  }));
  yield* mapBatches(citations, (r) => ({
    source_step_id: `${String(r.source_thread)}:${Number(r.source_turn)}`,
    target_step_id: `${String(r.thread_id)}:${Number(r.turn_index)}`,
    kind: 'cite',
  }));
}

/** A timestamp column as ISO 8601 in UTC with milliseconds (the CSVs' datetime). */
function iso(sql: Sql, column: string): Fragment {
  return sql`to_char(${sql(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function asList(value: unknown): Record<string, unknown>[] {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
