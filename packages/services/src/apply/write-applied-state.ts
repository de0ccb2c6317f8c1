// Writes an apply's planned state onto the live rows of its target, keeping item keys: a row whose
// key the target already has is updated in place, a missing one is inserted with the source's key.
// The plan never removes an item, so nothing here deletes (the decision map stays untouched).
import { sql } from 'drizzle-orm';
import type { ApplyState } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { setObjective, writeDocument } from '../workspace/document-mutations';

export async function writeAppliedState(
  tx: DbOrTx,
  input: {
    threadId: string;
    turnIndex: number;
    before: ApplyState;
    after: ApplyState;
    artifactNumbers: ReadonlyMap<string, number>;
  },
): Promise<void> {
  const { threadId, turnIndex, before, after } = input;
  if (before.objective !== after.objective) await setObjective(tx, threadId, after.objective);
  if (before.document.title !== after.document.title || before.document.content !== after.document.content) {
    await writeDocument(tx, threadId, after.document);
  }
  if (JSON.stringify(before.preferences) !== JSON.stringify(after.preferences)) {
    const rows = JSON.stringify(after.preferences.map((p, position) => ({ ...p, position })));
    await tx.execute(sql`
      with incoming as (
        select * from jsonb_to_recordset(${rows}::jsonb) as r(key uuid, text text, locked boolean, position int)
      ), updated as (
        update preferences p set text = r.text, locked = r.locked, position = r.position
        from incoming r where p.thread_id = ${threadId} and p.key = r.key
      )
      insert into preferences (thread_id, position, text, locked, key)
      select ${threadId}, r.position, r.text, r.locked, r.key from incoming r
      where not exists (select 1 from preferences p where p.thread_id = ${threadId} and p.key = r.key)`);
  }
  if (JSON.stringify(before.todos) !== JSON.stringify(after.todos)) {
    const rows = JSON.stringify(after.todos.map((t, position) => ({ ...t, position })));
    await tx.execute(sql`
      with incoming as (
        select * from jsonb_to_recordset(${rows}::jsonb) as r(key uuid, text text, done boolean, depth int, position int)
      ), updated as (
        update todos t set text = r.text, done = r.done, depth = r.depth, position = r.position
        from incoming r where t.thread_id = ${threadId} and t.key = r.key
      )
      insert into todos (thread_id, position, text, done, depth, key)
      select ${threadId}, r.position, r.text, r.done, r.depth, r.key from incoming r
      where not exists (select 1 from todos t where t.thread_id = ${threadId} and t.key = r.key)`);
  }
  const had = new Map(before.artifacts.map((a) => [a.key, a]));
  const changed = after.artifacts.filter((a) => {
    const old = had.get(a.key);
    return old === undefined || old.title !== a.title || old.kind !== a.kind || old.content !== a.content;
  });
  if (changed.length > 0) {
    const rows = JSON.stringify(
      changed.map((a) => ({ ...a, number: (a.key !== null && input.artifactNumbers.get(a.key)) || 0, is_new: !had.has(a.key) })),
    );
    // A new copy belongs to the apply's turn and keeps the source's family number (0 lets the
    // trigger number it, for an artifact the source has no number for).
    await tx.execute(sql`
      with incoming as (
        select * from jsonb_to_recordset(${rows}::jsonb)
          as r(key uuid, kind text, title text, content text, number int, is_new boolean)
      ), updated as (
        update artifacts a set kind = r.kind, title = r.title, content = r.content
        from incoming r where not r.is_new and a.thread_id = ${threadId} and a.key = r.key
      )
      insert into artifacts (thread_id, turn_index, kind, title, content, key, number)
      select ${threadId}, ${turnIndex}, r.kind, r.title, r.content, r.key, r.number from incoming r where r.is_new`);
  }
}
