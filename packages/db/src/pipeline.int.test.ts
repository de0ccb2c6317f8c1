import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from './client';
import { pipelinedTransaction } from './pipeline';
import { testDatabaseUrl } from './testing/index';

describe('pipelinedTransaction', () => {
  const table = sql.identifier(`pipeline_${randomBytes(4).toString('hex')}`);
  const sent: string[] = [];
  let handle: DbHandle;
  let other: DbHandle;

  beforeAll(async () => {
    handle = createDb({ url: testDatabaseUrl(), max: 1, onQuery: (query) => sent.push(query.trim()) });
    other = createDb({ url: testDatabaseUrl(), max: 1 });
    await handle.db.execute(sql`create table ${table} (id int primary key, v text not null)`);
    await handle.db.execute(sql`insert into ${table} values (0, 'locked row')`);
  });
  afterAll(async () => {
    await handle.db.execute(sql`drop table ${table}`);
    await Promise.all([handle.close(), other.close()]);
  });

  it("returns each statement's rows in order; a statement sees what the ones before it wrote", async () => {
    const [inserted, counted] = await pipelinedTransaction(handle.db, [
      sql`insert into ${table} values (1, 'one'), (2, 'two') returning id`,
      sql`select count(*)::int as n from ${table} where id > 0`,
    ]);
    expect(inserted).toEqual([{ id: 1 }, { id: 2 }]);
    expect(counted).toEqual([{ n: 2 }]);
  });

  it('sends the whole transaction before the first statement has answered', async () => {
    const statements = [sql`select pg_sleep(0.2) as slept`, sql`select count(*)::int as n from ${table}`];
    await pipelinedTransaction(handle.db, statements); // each statement is prepared on its first run
    sent.length = 0;
    const run = pipelinedTransaction(handle.db, statements);
    // 100 ms into the first statement's 200 ms sleep, `commit` is already on the wire.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sentWhileTheFirstRan = [...sent];
    await run;
    expect(sentWhileTheFirstRan.map((q) => q.split(/\s/)[0]!.toLowerCase())).toEqual(['begin', 'select', 'select', 'commit']);
  });

  it('rolls the whole transaction back on a failing statement and throws its error, not the aborted ones after it', async () => {
    await expect(
      pipelinedTransaction(handle.db, [
        sql`insert into ${table} values (10, 'kept only if all succeed')`,
        sql`select 1 / 0`,
        sql`insert into ${table} values (11, 'never')`,
      ]),
    ).rejects.toThrow(/division by zero/);
    const rows = await handle.db.execute(sql`select id from ${table} where id >= 10`);
    expect([...rows]).toEqual([]);
    // The connection is back in the pool, outside any transaction.
    const [state] = await handle.db.execute<{ open: boolean }>(sql`select now() <> statement_timestamp() as open`);
    expect(state).toEqual({ open: false });
  });

  it('a later statement sees what another transaction committed while an earlier one waited for its row lock', async () => {
    // Another transaction holds the row lock and writes a row, and commits 150 ms later.
    let releaseLock!: () => void;
    const held = new Promise<void>((resolve) => (releaseLock = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const editor = other.db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${table} where id = 0 for no key update`);
      await tx.execute(sql`insert into ${table} values (20, 'written while the lock was held')`);
      locked();
      await held;
    });
    await isLocked;
    const run = pipelinedTransaction(handle.db, [
      sql`update ${table} set v = 'taken' where id = 0 returning id`,
      sql`select count(*)::int as n from ${table} where id = 20`,
    ]);
    setTimeout(releaseLock, 150);
    await editor;
    const [updated, seen] = await run;
    expect(updated).toEqual([{ id: 0 }]);
    expect(seen).toEqual([{ n: 1 }]);
  });
});
