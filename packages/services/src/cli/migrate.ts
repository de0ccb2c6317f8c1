// `npm run db:migrate`: migrations + checkpointer schema against DATABASE_URL,
// or against the embedded PostgreSQL in .data/ when DATABASE_URL is unset.
import path from 'node:path';
import { startEmbeddedPostgres } from '@trellis/db';
import { migrateAll } from '../migrate-all';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
let url = process.env.DATABASE_URL;
let stop: (() => Promise<void>) | undefined;
if (!url) {
  const pg = await startEmbeddedPostgres({
    dataDir: path.resolve(process.env.TRELLIS_DATA_DIR ?? path.join(repoRoot, '.data'), 'postgres'),
    port: Number(process.env.TRELLIS_PG_PORT ?? 54329),
  });
  url = pg.url;
  stop = () => pg.stop();
}
try {
  await migrateAll({ databaseUrl: url });
  console.log('migrations applied');
} finally {
  await stop?.();
}
