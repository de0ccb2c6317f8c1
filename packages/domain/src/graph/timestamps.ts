/**
 * Timestamps arrive from the database layer as `Date` (postgres.js) or as strings (JSON, SQLite-style
 * text). The graph compares them as epoch milliseconds and emits ISO-8601 strings, so every consumer
 * sees one format. An unparseable value is a broken row, not something to guess around: it throws.
 */
export type Timestamp = Date | string;

export function toEpochMs(value: Timestamp): number {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new RangeError(`invalid timestamp: ${String(value)}`);
  }
  return ms;
}

export function toIsoString(value: Timestamp): string {
  return new Date(toEpochMs(value)).toISOString();
}
