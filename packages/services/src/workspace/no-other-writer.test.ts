// No route or service writes a workspace table except through the write path. Every
// source file of the packages and the studio is read; a statement that inserts into, updates or
// deletes from a workspace table (SQL or drizzle), or sets a thread's objective, outside
// `workspace/write/` fails this test, and so does importing those internals from anywhere but the
// write path and the three thread creators (which copy rows or create empty documents, not changes).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TABLES = ['documents', 'preferences', 'todos', 'artifacts', 'workspace_changes'];
const DRIZZLE_TABLES = ['documents', 'preferences', 'todos', 'artifacts', 'workspaceChanges'];
const WRITE_PATH_DIR = 'packages/services/src/workspace/write/';
const INTERNAL_IMPORTERS = new Set([
  'packages/services/src/workspace/write-workspace.ts',
  'packages/services/src/branching/create-branch.ts',
  'packages/services/src/conversations/create-conversation.ts',
  'packages/services/src/transcripts/write-pending-import.ts',
  'packages/services/src/shares/copy-shared.ts',
]);

const sqlTables = TABLES.join('|');
const drizzleTables = DRIZZLE_TABLES.join('|');
const WRITES: RegExp[] = [
  new RegExp(`\\binsert\\s+into\\s+"?(${sqlTables})"?\\b`, 'i'),
  new RegExp(`\\bupdate\\s+"?(${sqlTables})"?\\b(?!\\s*\\()`, 'i'),
  new RegExp(`\\bdelete\\s+from\\s+"?(${sqlTables})"?\\b`, 'i'),
  new RegExp(`\\.(insert|update|delete)\\(\\s*(${drizzleTables})\\s*\\)`),
  /\bupdate\s+conversations\b[^`]*\bset\b[^`]*\bobjective\s*=/i,
  /\.update\(\s*conversations\s*\)\s*\.set\(\s*\{[^}]*\bobjective\b/,
];

/** The writes a source text holds (exported for the test of the test). */
function writesIn(text: string): string[] {
  return WRITES.flatMap((pattern) => {
    const match = pattern.exec(text);
    return match ? [match[0]] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === '.next') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name) && !/\.int\.test\.ts$/.test(name) ? [path] : [];
  });
}

function allSources(): string[] {
  const packages = readdirSync(join(ROOT, 'packages')).map((name) => join(ROOT, 'packages', name, 'src'));
  return [...packages, join(ROOT, 'apps/studio/src')]
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    .flatMap(sourceFiles)
    .map((path) => relative(ROOT, path).split(sep).join('/'));
}

describe('the one write path', () => {
  it('finds writes of each kind (so a new writer cannot slip past the scan)', () => {
    expect(writesIn('await tx.execute(sql`insert into documents (thread_id) values (1)`)')).toHaveLength(1);
    expect(writesIn('sql`UPDATE "todos" SET text = 1`')).toHaveLength(1);
    expect(writesIn('sql`delete from preferences where id = 1`')).toHaveLength(1);
    expect(writesIn('tx.update(artifacts).set({ title })')).toHaveLength(1);
    expect(writesIn('tx.insert( workspaceChanges ).values(row)')).toHaveLength(1);
    expect(writesIn('sql`update conversations set title = 1, objective = null where x`')).toHaveLength(1);
    expect(writesIn('db.update(conversations).set({ objective: text })')).toHaveLength(1);
    expect(writesIn('sql`select content from documents for update`')).toHaveLength(0);
    expect(writesIn('sql`update conversations set title = ${t}`')).toHaveLength(0);
  });

  it('no module outside the write path writes a workspace table', () => {
    const sources = allSources();
    expect(sources.length).toBeGreaterThan(100);
    const offenders = sources
      .filter((path) => !path.startsWith(WRITE_PATH_DIR))
      .flatMap((path) => writesIn(readFileSync(join(ROOT, path), 'utf8')).map((write) => `${path}: ${write}`));
    expect(offenders).toEqual([]);
  });

  it('the write path’s internals are imported only by the write path and the thread creators', () => {
    const offenders = allSources()
      .filter((path) => !path.startsWith(WRITE_PATH_DIR) && !INTERNAL_IMPORTERS.has(path))
      .filter((path) => /from\s+['"][^'"]*workspace\/write\//.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
