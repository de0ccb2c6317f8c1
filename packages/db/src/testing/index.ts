import { randomUUID } from 'node:crypto';
import { createDb, type DbHandle } from '../client';
import { user } from '../schema/auth';

export { freePort } from './free-port';

/** The database of this test run (see global-setup.ts). */
export function testDatabaseUrl(): string {
  const url = process.env.TRELLIS_TEST_DATABASE_URL;
  if (!url) throw new Error('TRELLIS_TEST_DATABASE_URL is not set: run integration tests through vitest --project int');
  return url;
}

export function connectTestDb(max = 10): DbHandle {
  return createDb({ url: testDatabaseUrl(), max });
}

/** A fresh user with unique data, so tests never depend on each other's rows. */
export async function createTestUser(handle: DbHandle, name = 'Test User'): Promise<{ id: string; email: string }> {
  const id = randomUUID();
  const email = `user-${id}@example.test`;
  await handle.db.insert(user).values({ id, name, email });
  return { id, email };
}
export { createScratchDatabase, type ScratchDatabase } from './scratch-database';
