import { AppError } from '@trellis/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Item ids are uuids; anything else names no item (404, never a database cast error). */
export function requireItemId(id: string, what: string): string {
  if (!UUID.test(id)) throw AppError.notFound(what);
  return id.toLowerCase();
}
