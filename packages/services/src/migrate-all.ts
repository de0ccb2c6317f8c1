import { migrateDatabase } from '@trellis/db';
import { setupCheckpointer } from '@trellis/agent';

export const CHECKPOINTER_SCHEMA = 'langgraph';

/** Applies drizzle's migrations, then creates the checkpointer's own schema and tables. */
export async function migrateAll(options: { databaseUrl: string }): Promise<void> {
  await migrateDatabase(options.databaseUrl);
  await setupCheckpointer({ connectionString: options.databaseUrl, schema: CHECKPOINTER_SCHEMA });
}
