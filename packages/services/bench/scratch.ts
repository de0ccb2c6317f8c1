// A bench's own world: a scratch database (migrated, with the checkpointer's tables), the services
// on it with the offline model, and one user to act as.
import { setupCheckpointer } from '@trellis/agent';
import { createScratchDatabase, type ScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps, type ServiceDeps } from '../src/deps';
import { CHECKPOINTER_SCHEMA } from '../src/migrate-all';
import { seedUser } from './seed-history';

export interface BenchWorld {
  database: ScratchDatabase;
  deps: ServiceDeps;
  sql: ServiceDeps['sql'];
  userId: string;
  actor: { userId: string };
  /** Closes the services, then drops the database. */
  dispose(): Promise<void>;
}

export async function openBenchWorld(prefix: string): Promise<BenchWorld> {
  const database = await createScratchDatabase(prefix);
  try {
    await setupCheckpointer({ connectionString: database.url, schema: CHECKPOINTER_SCHEMA });
    const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
    const userId = await seedUser(deps.sql);
    return {
      database,
      deps,
      sql: deps.sql,
      userId,
      actor: { userId },
      dispose: async () => {
        await deps.close();
        await database.dispose();
      },
    };
  } catch (error) {
    await database.dispose();
    throw error;
  }
}
