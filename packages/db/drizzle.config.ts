import { defineConfig } from 'drizzle-kit';

// The checkpointer's tables live in their own schema (`langgraph`); drizzle-kit only
// ever looks at `public`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/db/src/schema/index.ts',
  out: './drizzle',
  schemaFilter: ['public'],
  strict: true,
});
