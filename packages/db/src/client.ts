import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Db = PostgresJsDatabase<Schema>;
/** A database handle or an open transaction: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/** `onQuery` sees every statement sent (tests count round trips with it). */
export function createDb(options: { url: string; max?: number; onQuery?: (query: string) => void }): DbHandle {
  const onQuery = options.onQuery;
  const sql = postgres(options.url, {
    ...(onQuery ? { debug: (_connection: number, query: string) => onQuery(query) } : {}),
    max: options.max ?? 10,
    onnotice: () => undefined,
    idle_timeout: 30,
    connection: { application_name: 'trellis' },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
