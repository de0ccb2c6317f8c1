import { inArray } from 'drizzle-orm';
import { user, type DbOrTx } from '@trellis/db';

/** The names of these people, by user id, in one read (none when there is nobody to name). */
export async function userNames(db: DbOrTx, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, wanted));
  return new Map(rows.map((row) => [row.id, row.name]));
}
