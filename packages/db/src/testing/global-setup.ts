// Vitest global setup for `*.int.test.ts`: a real PostgreSQL and a database of this
// run's own. DATABASE_URL names a server to use; otherwise an embedded one is
// started in a temporary folder on a free port. Parallel and repeated runs never
// share a database.
import { createScratchDatabase } from './scratch-database';

export default async function setup(): Promise<() => Promise<void>> {
  const database = await createScratchDatabase('trellis_test');
  process.env.TRELLIS_TEST_DATABASE_URL = database.url;
  return () => database.dispose();
}
