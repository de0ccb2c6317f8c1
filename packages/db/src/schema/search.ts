import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** How much of a text full-text search reads: keeps every tsvector far below PostgreSQL's 1 MB cap. */
export const SEARCH_TEXT_PREFIX_CHARS = 100_000;

/**
 * The one tsvector expression of a searchable column. The GIN indexes are built on it and every
 * search query repeats it verbatim, which is what lets the planner use them.
 */
export function searchVector(column: AnyPgColumn | SQL): SQL {
  return sql`to_tsvector('english'::regconfig, left(${column}, ${sql.raw(String(SEARCH_TEXT_PREFIX_CHARS))}))`;
}
