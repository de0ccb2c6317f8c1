// The layer rules of eslint.config.js, run through ESLint's own API on fixture
// text: what the pure packages and client code may not import.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const configFile = path.join(repoRoot, 'eslint.config.js');

let layers: ESLint;

beforeAll(async () => {
  const config = (await import(pathToFileURL(configFile).href)) as { layerRules: Linter.Config[] };
  // Only the layer rules: the type-aware rules need files on disk inside a tsconfig.
  layers = new ESLint({
    cwd: repoRoot,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...config.layerRules],
  });
});

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await layers.lintText(code, { filePath: path.join(repoRoot, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer rules', () => {
  it('rejects a domain module that imports drizzle-orm', async () => {
    const found = await problems('packages/domain/src/graph/fixture.ts', "import { eq } from 'drizzle-orm';\nexport const byId = eq;\n");
    expect(found).toEqual([expect.stringMatching(/^no-restricted-imports: .*drizzle-orm.*no database client/)]);
  });

  it('rejects frameworks, React, Node built-ins and process.env in the pure packages', async () => {
    expect(await problems('packages/domain/src/fixture.ts', "import { NextResponse } from 'next/server';\nexport const r = NextResponse;\n")).toHaveLength(1);
    expect(await problems('packages/transcripts/src/fixture.ts', "import { useState } from 'react';\nexport const s = useState;\n")).toHaveLength(1);
    expect(await problems('packages/transcripts/src/fixture.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).toHaveLength(1);
    expect(await problems('packages/domain/src/fixture.ts', 'export const url = process.env.DATABASE_URL;\n')).toEqual([
      expect.stringMatching(/^no-restricted-globals: /),
    ]);
  });

  it('lets the transcripts CLI read files and the services use the database', async () => {
    expect(await problems('packages/transcripts/src/cli.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).toEqual([]);
    expect(await problems('packages/services/src/fixture.ts', "import { eq } from 'drizzle-orm';\nexport const byId = eq;\n")).toEqual([]);
  });

  it('rejects a client component that imports server code', async () => {
    const found = await problems('apps/studio/src/components/chat/fixture.tsx', "import { getContext } from '@/server/context';\nexport const c = getContext;\n");
    expect(found).toEqual([expect.stringMatching(/^no-restricted-imports: .*no server code/)]);
    expect(await problems('apps/studio/src/lib/api/fixture.ts', "import { sendTurn } from '@trellis/services';\nexport const s = sendTurn;\n")).toHaveLength(1);
  });

  it('rejects process.env outside the env modules, in the studio and in every package', async () => {
    const readsEnv = 'export const deadline = Number(process.env.TRELLIS_IMPORT_DEADLINE_MS ?? 30000);\n';
    for (const file of [
      'packages/services/src/transcripts/fixture.ts',
      'packages/agent/src/fixture.ts',
      'packages/db/src/fixture.ts',
      'apps/studio/src/server/fixture.ts',
      'apps/studio/src/app/api/fixture/route.ts',
      'apps/studio/src/components/chat/fixture.tsx',
    ]) {
      expect(await problems(file, readsEnv), file).toEqual([expect.stringMatching(/^no-restricted-properties: .*env\.ts/)]);
    }
    const destructures = 'const { NEXT_RUNTIME } = process.env;\nexport const isBundled = NEXT_RUNTIME !== undefined;\n';
    expect(await problems('packages/services/src/transcripts/fixture.ts', destructures)).toHaveLength(1);
  });

  it("lets env.ts, Next's instrumentation check, the CLIs and test support read the environment", async () => {
    const readsEnv = 'export const url = process.env.DATABASE_URL;\n';
    for (const file of [
      'apps/studio/src/server/env.ts',
      'apps/studio/src/instrumentation.ts',
      'packages/services/src/cli/migrate.ts',
      'packages/db/src/testing/index.ts',
      'apps/studio/src/server/fixture.int.test.ts',
    ]) {
      expect(await problems(file, readsEnv), file).toEqual([]);
    }
  });

  it('is part of the configuration the repository lints with', async () => {
    const real = new ESLint({ cwd: repoRoot });
    const config = (await real.calculateConfigForFile(path.join(repoRoot, 'packages/domain/src/index.ts'))) as Linter.Config;
    expect(config.rules?.['no-restricted-imports']).toEqual([2, expect.objectContaining({ patterns: expect.any(Array) })]);
    const services = (await real.calculateConfigForFile(
      path.join(repoRoot, 'packages/services/src/transcripts/run-transcript-job.ts'),
    )) as Linter.Config;
    expect(services.rules?.['no-restricted-properties']).toEqual([2, expect.objectContaining({ object: 'process', property: 'env' })]);
  });
});

describe('the codebase names no issue or seed number', () => {
  it('rejects a comment that points at an issue or a seed instead of saying why', async () => {
    // Built from parts, so this file holds no such reference itself.
    const issue = ['Issue', '24'].join(' ');
    const seed = ['seed', '000'].join(' ');
    expect(await problems('packages/services/src/fixture.ts', `// Retry in place (${issue}): the n-th reply.\nexport const n = 1;\n`)).toEqual([
      `trellis/no-tracker-numbers: Say why in your own words (or point into docs/): a comment names no issue or seed number ("${issue}").`,
    ]);
    expect(await problems('apps/studio/src/fixture.tsx', `/* as ${seed} keeps it */\nexport const n = 1;\n`)).toHaveLength(1);
    expect(await problems('packages/domain/src/fixture.ts', '// The retry keeps its question.\nexport const n = 1;\n')).toEqual([]);
  });

  it('holds no issue or seed number in any source file under apps/*/src and packages/*/src (code and strings too)', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const config = (await import(pathToFileURL(configFile).href)) as { TRACKER_NUMBER: RegExp };
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (entry === 'node_modules' || entry === 'fixtures') continue;
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|tsx|css)$/.test(entry)) {
          readFileSync(full, 'utf8').split('\n').forEach((line, i) => {
            if (config.TRACKER_NUMBER.test(line)) found.push(`${path.relative(repoRoot, full)}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    for (const group of ['apps', 'packages']) {
      for (const name of readdirSync(path.join(repoRoot, group))) {
        const src = path.join(repoRoot, group, name, 'src');
        if (statSync(src, { throwIfNoEntry: false })?.isDirectory()) walk(src);
      }
    }
    expect(found).toEqual([]);
  });
});
