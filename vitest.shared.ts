// Shared vitest layout: `*.test.ts` is the unit project (pure code, no I/O),
// `*.int.test.ts` the integration project against a real PostgreSQL that the
// global setup starts (embedded) or reaches (DATABASE_URL), in a database of its own.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export function trellisVitestConfig(dir: string) {
  const globalSetup = path.resolve(import.meta.dirname, 'packages/db/src/testing/global-setup.ts');
  // The studio's `@/` imports (its tsconfig paths); other packages have no `@/`.
  const resolve = { alias: { '@': path.join(dir, 'src') } };
  return defineConfig({
    test: {
      projects: [
        {
          resolve,
          test: {
            name: 'unit',
            root: dir,
            // Property tests run hundreds of cases; on a 2-core machine under load the 5 s default
            // is a flake, not a finding. No test asserts on time.
            testTimeout: 30_000,
            include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
            exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          },
        },
        {
          resolve,
          test: {
            name: 'int',
            root: dir,
            include: ['src/**/*.int.test.ts'],
            globalSetup: [globalSetup],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  });
}
