// Preference edits of the write path. A locked preference binds the agent: for the agent's edits
// the UPDATE/DELETE itself excludes locked rows, so no caller slips past the lock; the person may
// still edit or unlock it. Every change of a row bumps its version and appends a change row.
import { and, asc, eq, sql } from 'drizzle-orm';
import { AppError, type LivePreference } from '@trellis/domain';
import { preferences, type DbOrTx } from '@trellis/db';
import { requireItemId } from '../ids';
import type { WriteContext } from './context';
import { rememberDiscarded } from './discarded-items';
import { changedSince, itemConflict } from './item-versions';
import { closeGap, nextPosition, reorderList } from './ordered-list';

type PreferenceRow = typeof preferences.$inferSelect;

export function toPreference(row: PreferenceRow): LivePreference {
  return { id: row.id, key: row.key, text: row.text, locked: row.locked, position: row.position, version: row.version };
}

export async function insertPreference(ctx: WriteContext, input: { text: string; locked?: boolean | undefined }): Promise<LivePreference> {
  const [row] = await ctx.tx
    .insert(preferences)
    .values({ threadId: ctx.threadId, text: input.text, locked: input.locked ?? false, position: nextPosition(preferences, ctx.threadId) })
    .returning();
  const preference = toPreference(row!);
  ctx.drafts.push({
    kind: 'preference',
    key: preference.key,
    op: 'create',
    before: null,
    after: { version: preference.version, text: preference.text, locked: preference.locked, position: preference.position },
  });
  return preference;
}

export async function changePreference(
  ctx: WriteContext,
  id: string,
  patch: { text?: string | undefined; locked?: boolean | undefined; baseVersion?: number | undefined },
): Promise<LivePreference> {
  const itemId = requireItemId(id, 'Preference');
  const [current] = await ctx.tx.select().from(preferences).where(editable(ctx, itemId)).for('update');
  if (!current) throw await refusal(ctx.tx, ctx.threadId, itemId);
  const values = {
    ...(patch.text === undefined || patch.text === current.text ? {} : { text: patch.text }),
    ...(patch.locked === undefined || patch.locked === current.locked ? {} : { locked: patch.locked }),
  };
  const fields = Object.keys(values);
  if (fields.length === 0) return toPreference(current);
  if (patch.baseVersion !== undefined && patch.baseVersion < current.version) {
    const changed = await changedSince(ctx, 'preference', current.key, patch.baseVersion);
    if (fields.some((field) => changed.has(field))) throw itemConflict('Preference', toPreference(current));
  }
  const [row] = await ctx.tx
    .update(preferences)
    .set({ ...values, version: sql`${preferences.version} + 1` })
    .where(eq(preferences.id, itemId))
    .returning();
  const preference = toPreference(row!);
  ctx.drafts.push({
    kind: 'preference',
    key: preference.key,
    op: 'update',
    before: { version: current.version, ...pick(current, fields) },
    after: { version: preference.version, ...values },
  });
  return preference;
}

export async function deletePreferenceRow(ctx: WriteContext, id: string): Promise<void> {
  const itemId = requireItemId(id, 'Preference');
  const [row] = await ctx.tx.delete(preferences).where(editable(ctx, itemId)).returning();
  if (!row) throw await refusal(ctx.tx, ctx.threadId, itemId);
  await closeGap(ctx.tx, preferences, ctx.threadId, row.position);
  await rememberDiscarded(ctx.tx, ctx.threadId, {
    kind: 'preference',
    key: row.key,
    text: row.text,
    locked: row.locked,
    editor: ctx.editor,
  });
  ctx.drafts.push({
    kind: 'preference',
    key: row.key,
    op: 'delete',
    before: { version: row.version, text: row.text, locked: row.locked, position: row.position },
    after: null,
  });
}

export async function reorderPreferenceRows(ctx: WriteContext, ids: string[]): Promise<LivePreference[]> {
  const before = await listPreferences(ctx.tx, ctx.threadId);
  await reorderList(ctx.tx, preferences, ctx.threadId, ids);
  const after = await listPreferences(ctx.tx, ctx.threadId);
  pushReorder(ctx, 'preference', before, after);
  return after;
}

export async function listPreferences(tx: DbOrTx, threadId: string): Promise<LivePreference[]> {
  const rows = await tx
    .select()
    .from(preferences)
    .where(eq(preferences.threadId, threadId))
    .orderBy(asc(preferences.position), asc(preferences.id));
  return rows.map(toPreference);
}

/** A reorder is one change of the list (its keys in order before and after); the items' versions stay. */
export function pushReorder(ctx: WriteContext, kind: 'preference' | 'todo', before: { key: string | null }[], after: { key: string | null }[]): void {
  const order = (list: { key: string | null }[]) => list.map((item) => item.key);
  if (JSON.stringify(order(before)) === JSON.stringify(order(after))) return;
  ctx.drafts.push({ kind, key: null, op: 'reorder', before: { order: order(before) }, after: { order: order(after) } });
}

export function pick(row: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, row[field]]));
}

function editable(ctx: WriteContext, id: string) {
  return and(
    eq(preferences.id, id),
    eq(preferences.threadId, ctx.threadId),
    ctx.editor === 'agent' ? eq(preferences.locked, false) : undefined,
  );
}

/** Why an edit matched no row: the preference is unknown here (404) or locked (409). */
async function refusal(tx: DbOrTx, threadId: string, id: string): Promise<AppError> {
  const [row] = await tx
    .select({ locked: preferences.locked })
    .from(preferences)
    .where(and(eq(preferences.id, id), eq(preferences.threadId, threadId)));
  if (!row) return AppError.notFound('Preference');
  return new AppError('conflict', `Preference ${id} is locked: only the person can change it`);
}
