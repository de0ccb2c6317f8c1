import { defineConfig } from 'vitest/config';

// Browser and HTTP flows against a production build of the studio, started once
// by the global setup on its own database. One spec file per user flow.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
