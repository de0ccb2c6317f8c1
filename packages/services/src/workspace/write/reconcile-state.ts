// Brings the live rows to a target state, item by item, through the write path: an apply's planned
// state (items matched by key, nothing removed) and the edited preview that seeds a branch (items
// the preview dropped are removed). Each differing field is a change row like a single edit would
// write: a set objective, a document patch, item creates, updates and deletes, one reorder per list.
import { sql } from 'drizzle-orm';
import type { WriteContext } from './context';
import { rememberDiscarded } from './discarded-items';
import { editDocument, setObjective, type DocumentChangeMaker } from './document-mutations';
import { listPreferences, pick, pushReorder } from './preference-mutations';
import { listTodos } from './todo-mutations';

export interface TargetState {
  /** Omitted: unchanged. */
  objective?: string | null | undefined;
  document?: { title: string; content: string } | undefined;
  preferences?: { key: string | null; text: string; locked: boolean }[] | undefined;
  todos?: { key: string | null; text: string; done: boolean; depth: number }[] | undefined;
  /** Created or updated by key, never removed (an apply's artifacts). */
  artifacts?: { key: string | null; kind: string; title: string; content: string }[] | undefined;
}

export interface ReconcileOptions {
  /** Remove the items the target does not list (a preview edit); an apply removes nothing. */
  removeMissing: boolean;
  /** The turn new artifacts belong to. */
  turnIndex: number;
  /** Family numbers that new artifact copies keep, by key (0 lets the trigger number one). */
  artifactNumbers?: ReadonlyMap<string, number>;
  /** How an apply makes its document change, with the authors of the text it brings. */
  documentChange?: DocumentChangeMaker | undefined;
}

export async function reconcileState(ctx: WriteContext, target: TargetState, options: ReconcileOptions): Promise<void> {
  if (target.objective !== undefined) await setObjective(ctx, target.objective);
  if (target.document) {
    await editDocument(
      ctx,
      { kind: 'document', title: target.document.title, content: target.document.content },
      { change: options.documentChange },
    );
  }
  if (target.preferences) {
    await reconcileList(ctx, 'preference', target.preferences, options.removeMissing);
  }
  if (target.todos) await reconcileList(ctx, 'todo', target.todos, options.removeMissing);
  if (target.artifacts) await reconcileArtifacts(ctx, target.artifacts, options);
}

type ListKind = 'preference' | 'todo';
type TargetItem = { key: string | null; text: string; locked?: boolean; done?: boolean; depth?: number };

const FIELDS: Record<ListKind, string[]> = { preference: ['text', 'locked'], todo: ['text', 'done', 'depth'] };

async function reconcileList(ctx: WriteContext, kind: ListKind, target: TargetItem[], removeMissing: boolean): Promise<void> {
  const table = kind === 'preference' ? sql`preferences` : sql`todos`;
  // Live rows always have a key (the column is not null; only snapshot items may lack one).
  const current: (Record<string, unknown> & { key: string; version: number; position: number })[] = (
    kind === 'preference' ? await listPreferences(ctx.tx, ctx.threadId) : await listTodos(ctx.tx, ctx.threadId)
  ).map((item) => ({ ...item, key: item.key! }));
  const byKey = new Map(current.map((item) => [item.key, item]));
  const seen = new Set<string>();
  // A key listed twice, or unknown here, is a new item (with that key when it is new to the thread).
  const placed = target.map((item) => {
    const existing = item.key !== null && !seen.has(item.key) ? byKey.get(item.key) : undefined;
    if (existing) seen.add(existing.key);
    return { item, existing };
  });
  const missing = current.filter((item) => !seen.has(item.key));
  const kept = removeMissing ? [] : missing;
  const fields = FIELDS[kind];
  const values = (item: TargetItem) =>
    kind === 'preference'
      ? { text: item.text, locked: item.locked ?? false }
      : { text: item.text, done: item.done ?? false, depth: item.depth ?? 0 };

  const updates: Record<string, unknown>[] = [];
  const inserts: Record<string, unknown>[] = [];
  placed.forEach(({ item, existing }, position) => {
    const next = values(item);
    if (!existing) {
      inserts.push({ ...next, key: item.key !== null && !byKey.has(item.key) ? item.key : null, position });
      return;
    }
    const changed = fields.filter((field) => (next as Record<string, unknown>)[field] !== existing[field]);
    updates.push({ ...next, key: existing.key, position, bump: changed.length > 0 ? 1 : 0 });
    if (changed.length > 0) {
      ctx.drafts.push({
        kind,
        key: existing.key,
        op: 'update',
        before: { version: existing.version, ...pick(existing, changed) },
        after: { version: existing.version + 1, ...pick(next, changed) },
      });
    }
  });
  kept.forEach((item, i) => updates.push({ ...pick(item, fields), key: item.key, position: placed.length + i, bump: 0 }));

  await removeItems(ctx, kind, removeMissing ? missing : []);
  if (updates.length > 0) {
    const columns = kind === 'preference' ? sql`text = r.text, locked = r.locked` : sql`text = r.text, done = r.done, depth = r.depth`;
    const recordset =
      kind === 'preference'
        ? sql`r(key uuid, text text, locked boolean, position int, bump int)`
        : sql`r(key uuid, text text, done boolean, depth int, position int, bump int)`;
    await ctx.tx.execute(sql`
      update ${table} item set ${columns}, position = r.position, version = item.version + r.bump
      from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as ${recordset}
      where item.thread_id = ${ctx.threadId} and item.key = r.key`);
  }
  if (inserts.length > 0) {
    const insertSql =
      kind === 'preference'
        ? sql`insert into preferences (thread_id, position, text, locked, key)
            select ${ctx.threadId}, r.position, r.text, r.locked, coalesce(r.key, gen_random_uuid())
            from jsonb_to_recordset(${JSON.stringify(inserts)}::jsonb) as r(key uuid, text text, locked boolean, position int)
            order by r.position
            returning key::text as key, version, position`
        : sql`insert into todos (thread_id, position, text, done, depth, key)
            select ${ctx.threadId}, r.position, r.text, r.done, r.depth, coalesce(r.key, gen_random_uuid())
            from jsonb_to_recordset(${JSON.stringify(inserts)}::jsonb) as r(key uuid, text text, done boolean, depth int, position int)
            order by r.position
            returning key::text as key, version, position`;
    const created = await ctx.tx.execute<{ key: string; version: number; position: number }>(insertSql);
    const byPosition = new Map(inserts.map((row) => [row.position as number, row]));
    for (const row of [...created].sort((a, b) => a.position - b.position)) {
      const input = byPosition.get(row.position)!;
      ctx.drafts.push({
        kind,
        key: row.key,
        op: 'create',
        before: null,
        after: { version: row.version, ...pick(input, fields), position: row.position },
      });
    }
  }
  // The order of the items that were there before and still are: a move among them is one reorder change.
  const survivors = current.filter((item) => removeMissing ? seen.has(item.key) : true);
  const finalOrder = [...placed.filter((p) => p.existing).map((p) => ({ key: p.existing!.key })), ...kept.map((item) => ({ key: item.key }))];
  pushReorder(ctx, kind, survivors, finalOrder);
}

async function removeItems(ctx: WriteContext, kind: ListKind, items: (Record<string, unknown> & { key: string; version: number; position: number })[]) {
  if (items.length === 0) return;
  const table = kind === 'preference' ? sql`preferences` : sql`todos`;
  await ctx.tx.execute(sql`
    delete from ${table} where thread_id = ${ctx.threadId}
      and key in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(items.map((i) => i.key))}::jsonb))`);
  for (const item of items) {
    await rememberDiscarded(
      ctx.tx,
      ctx.threadId,
      kind === 'preference'
        ? { kind, key: item.key, text: String(item.text), locked: Boolean(item.locked), editor: ctx.editor }
        : { kind, key: item.key, text: String(item.text), done: Boolean(item.done), depth: Number(item.depth), editor: ctx.editor },
    );
    ctx.drafts.push({
      kind,
      key: item.key,
      op: 'delete',
      before: { version: item.version, ...pick(item, FIELDS[kind]), position: item.position },
      after: null,
    });
  }
}

async function reconcileArtifacts(ctx: WriteContext, target: NonNullable<TargetState['artifacts']>, options: ReconcileOptions) {
  const current = await ctx.tx.execute<{ key: string; kind: string; title: string; content: string }>(sql`
    select key::text as key, kind, title, content from artifacts where thread_id = ${ctx.threadId}`);
  const had = new Map(current.map((a) => [a.key, a]));
  const changed = target.filter((a) => {
    const old = a.key === null ? undefined : had.get(a.key);
    return old === undefined || old.title !== a.title || old.kind !== a.kind || old.content !== a.content;
  });
  if (changed.length === 0) return;
  const rows = changed.map((a) => ({
    ...a,
    number: (a.key !== null && options.artifactNumbers?.get(a.key)) || 0,
    is_new: a.key === null || !had.has(a.key),
  }));
  // A new copy belongs to the apply's turn and keeps the source's family number (0 lets the
  // trigger number it, for an artifact the source has no number for).
  const created = await ctx.tx.execute<{ key: string; number: number; kind: string; title: string; content: string }>(sql`
    with incoming as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r(key uuid, kind text, title text, content text, number int, is_new boolean)
    ), updated as (
      update artifacts a set kind = r.kind, title = r.title, content = r.content
      from incoming r where not r.is_new and a.thread_id = ${ctx.threadId} and a.key = r.key
    )
    insert into artifacts (thread_id, turn_index, kind, title, content, key, number)
    select ${ctx.threadId}, ${options.turnIndex}, r.kind, r.title, r.content, coalesce(r.key, gen_random_uuid()), r.number
    from incoming r where r.is_new
    returning key::text as key, number, kind, title, content`);
  for (const row of rows.filter((r) => !r.is_new)) {
    const old = had.get(row.key!)!;
    ctx.drafts.push({
      kind: 'artifact',
      key: row.key,
      op: 'update',
      before: { kind: old.kind, title: old.title, content: old.content },
      after: { kind: row.kind, title: row.title, content: row.content },
    });
  }
  for (const row of created) {
    ctx.drafts.push({
      kind: 'artifact',
      key: row.key,
      op: 'create',
      before: null,
      after: { number: row.number, turn_index: options.turnIndex, kind: row.kind, title: row.title, content: row.content },
    });
  }
}
