// Preference edits shared by the REST services and the agent's workspace port.
// A locked preference binds the agent: with `as: 'agent'` the UPDATE/DELETE
// itself excludes locked rows, so no caller can slip past the lock. The person
// who owns the thread may still edit or unlock it.
import { and, asc, eq } from 'drizzle-orm';
import { AppError, type Preference } from '@trellis/domain';
import { preferences, type DbOrTx } from '@trellis/db';
import { requireItemId } from './ids';
import { closeGap, nextPosition, reorderList } from './ordered-list';
import { rememberDiscarded } from './discarded-items';

export type Editor = 'person' | 'agent';

type PreferenceRow = typeof preferences.$inferSelect;

function toPreference(row: PreferenceRow): Preference {
  return { id: row.id, key: row.key, text: row.text, locked: row.locked, position: row.position };
}

export async function insertPreference(
  tx: DbOrTx,
  threadId: string,
  input: { text: string; locked?: boolean },
): Promise<Preference> {
  const [row] = await tx
    .insert(preferences)
    .values({ threadId, text: input.text, locked: input.locked ?? false, position: nextPosition(preferences, threadId) })
    .returning();
  return toPreference(row!);
}

export async function changePreference(
  tx: DbOrTx,
  threadId: string,
  id: string,
  patch: { text?: string; locked?: boolean },
  editor: Editor,
): Promise<Preference> {
  const itemId = requireItemId(id, 'Preference');
  const values = {
    ...(patch.text === undefined ? {} : { text: patch.text }),
    ...(patch.locked === undefined ? {} : { locked: patch.locked }),
  };
  if (Object.keys(values).length === 0) return toPreference(await requirePreference(tx, threadId, itemId, editor));
  const [row] = await tx.update(preferences).set(values).where(editable(threadId, itemId, editor)).returning();
  if (!row) throw await refusal(tx, threadId, itemId);
  return toPreference(row);
}

export async function deletePreferenceRow(tx: DbOrTx, threadId: string, id: string, editor: Editor): Promise<void> {
  const itemId = requireItemId(id, 'Preference');
  const [row] = await tx
    .delete(preferences)
    .where(editable(threadId, itemId, editor))
    .returning();
  if (!row) throw await refusal(tx, threadId, itemId);
  await closeGap(tx, preferences, threadId, row.position);
  await rememberDiscarded(tx, threadId, { kind: 'preference', key: row.key, text: row.text, locked: row.locked, editor });
}

export async function reorderPreferenceRows(tx: DbOrTx, threadId: string, ids: string[]): Promise<Preference[]> {
  await reorderList(tx, preferences, threadId, ids);
  return listPreferences(tx, threadId);
}

export async function listPreferences(tx: DbOrTx, threadId: string): Promise<Preference[]> {
  const rows = await tx
    .select()
    .from(preferences)
    .where(eq(preferences.threadId, threadId))
    .orderBy(asc(preferences.position), asc(preferences.id));
  return rows.map(toPreference);
}

function editable(threadId: string, id: string, editor: Editor) {
  return and(
    eq(preferences.id, id),
    eq(preferences.threadId, threadId),
    editor === 'agent' ? eq(preferences.locked, false) : undefined,
  );
}

async function requirePreference(tx: DbOrTx, threadId: string, id: string, editor: Editor): Promise<PreferenceRow> {
  const [row] = await tx.select().from(preferences).where(editable(threadId, id, editor));
  if (!row) throw await refusal(tx, threadId, id);
  return row;
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
