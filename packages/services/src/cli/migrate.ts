// `npm run db:migrate`: migrations + checkpointer schema against DATABASE_URL,
// or against the embedded PostgreSQL in .data/ when DATABASE_URL is unset.
import path from 'node:path';
import { EMBEDDED_PG_DEFAULT_PORT, resolveDataDir, startEmbeddedPostgres } from '@trellis/db';
import { migrateAll } from '../migrate-all';

let url = process.env.DATABASE_URL;
let stop: (() => Promise<void>) | undefined;
if (!url) {
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(resolveDataDir(process.env.TRELLIS_DATA_DIR, import.meta.dirname), 'postgres'),
    port: Number(process.env.TRELLIS_PG_PORT ?? EMBEDDED_PG_DEFAULT_PORT),
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
