import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The database handle; `$client` is the postgres.js client under it (with every statement prepared). */
export type Db = PostgresJsDatabase<Schema> & { $client: postgres.Sql };
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
  const db = drizzle(preparingStatements(sql), { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/**
 * The client drizzle runs on, with every statement prepared. drizzle sends its queries unnamed
 * (`unsafe(text, params, { prepare: false })`), and postgres.js runs an unnamed statement that has
 * parameters in two round trips (parse and describe, wait, then bind and execute). A named statement
 * is described once per connection, cached under its text, and then runs in one round trip, as
 * postgres.js's own tagged queries do. Transactions and savepoints hand out the same kind of client.
 */
function preparingStatements<T extends postgres.Sql | postgres.TransactionSql>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (text: string, parameters?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(text, parameters, { ...options, prepare: true });
      }
      if (property === 'begin' || property === 'savepoint') {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return open.call(target, ...args, (tx: postgres.TransactionSql) => body(preparingStatements(tx)));
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
