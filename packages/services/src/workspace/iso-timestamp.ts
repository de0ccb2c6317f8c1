import { sql, type SQL } from 'drizzle-orm';

/** A timestamptz as an ISO 8601 UTC string, formatted by Postgres for raw-SQL reads. */
export function isoTimestamp(column: SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
